# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# waf build for ns-3.35 and older (ns-3.36+ uses CMakeLists.txt). The lists below must equal the
# ones in CMakeLists.txt: the test suite "distributed-training-build-lists" fails when they differ.


def configure(conf):
    conf.env.append_value('CXXFLAGS', ['-std=c++17'])
    conf.check_cfg(package='nlohmann_json', uselib_store='NLOHMANN_JSON',
                   args=['--cflags'], mandatory=True)
    # FabricTopology uses the header-only part of Boost.Graph (Debian: libboost-graph-dev).
    conf.check_cxx(header_name='boost/graph/adjacency_list.hpp', mandatory=True)


def build(bld):
    module = bld.create_ns3_module('distributed-training',
                                   ['core', 'network', 'internet', 'point-to-point',
                                    'applications', 'traffic-control'])
    module.source = [
        'helper/analytic-backend.cc',
        'helper/congestion-monitor.cc',
        'helper/flow-backend.cc',
        'helper/linux-backend.cc',
        'helper/linux-flow-study.cc',
        'helper/linux-testbed.cc',
        'helper/linux-training-apps.cc',
        'helper/packet-backend.cc',
        'helper/program-options.cc',
        'helper/scenario-options.cc',
        'helper/sweep-engine.cc',
        'helper/progress-reporter.cc',
        'helper/training-backend.cc',
        'helper/training-cluster-helper.cc',
        'helper/training-cluster-cross-traffic.cc',
        'helper/training-cluster-jobs.cc',
        'helper/training-cluster-topology.cc',
        'helper/validation-matrix.cc',
        'model/allreduce-sharing.cc',
        'model/async-ps-model.cc',
        'model/calibrated-sharing.cc',
        'model/capped-sharing.cc',
        'model/cynthia-model.cc',
        'model/fabric-ecmp-routing.cc',
        'model/fabric-topology.cc',
        'model/fcfs-sharing.cc',
        'model/flow-event-core.cc',
        'model/flow-ps-classes.cc',
        'model/flow-ps-engine.cc',
        'model/flow-rate-class.cc',
        'model/flow-ring-engine.cc',
        'model/json-input.cc',
        'model/flow-level-simulator.cc',
        'model/mva-solver.cc',
        'model/osf-model.cc',
        'model/parameter-server-application.cc',
        'model/ps-read-bounds-model.cc',
        'model/ps-sharing.cc',
        'model/record-stream.cc',
        'model/ring-allreduce-application.cc',
        'model/ring-allreduce-model.cc',
        'model/sharing-index.cc',
        'model/sharing-model.cc',
        'model/sync-ps-model.cc',
        'model/tcp-linux-cubic.cc',
        'model/linux-buffer-tuner.cc',
        'model/tensor-chunk-header.cc',
        'model/tensor-connection.cc',
        'model/tensor-fusion.cc',
        'model/training-network.cc',
        'model/training-profile.cc',
        'model/training-result.cc',
        'model/training-scenario.cc',
        'model/training-worker-application.cc',
    ]
    module.use = ['NLOHMANN_JSON']
    # waf is ns-3.35 and older: the APIs of model/distributed-training-compat.h before 3.41.
    module.defines = ['DT_SOURCE_DIR="%s"' % bld.path.abspath(), 'DT_NS3_VERSION=335']

    module_test = bld.create_ns3_module_test_library('distributed-training')
    module_test.source = [
        'test/analytic-backend-test-suite.cc',
        'test/analytic-models-test-suite.cc',
        'test/build-lists-test-suite.cc',
        'test/congestion-test-suite.cc',
        'test/cross-backend-test-suite.cc',
        'test/fabric-topology-test-suite.cc',
        'test/flow-fabric-test-suite.cc',
        'test/flow-incremental-test-suite.cc',
        'test/flow-level-test-suite.cc',
        'test/linux-backend-test-suite.cc',
        'test/invariants-test-suite.cc',
        'test/json-input-test-suite.cc',
        'test/packet-level-test-suite.cc',
        'test/scenario-options-test-suite.cc',
        'test/ring-allreduce-test-suite.cc',
        'test/sharing-index-test-suite.cc',
        'test/sharing-model-test-suite.cc',
        'test/sweep-engine-test-suite.cc',
        'test/tcp-linux-cubic-test-suite.cc',
        'test/linux-host-model-test-suite.cc',
        'test/training-profile-test-suite.cc',
        'test/training-result-test-suite.cc',
        'test/training-scenario-test-suite.cc',
        'test/transformer-profile-test-suite.cc',
        'test/validation-matrix-test-suite.cc',
    ]
    module_test.defines = ['DT_SOURCE_DIR="%s"' % bld.path.abspath(), 'DT_NS3_VERSION=335']

    headers = bld(features='ns3header')
    headers.module = 'distributed-training'
    headers.source = [
        'helper/analytic-backend.h',
        'helper/congestion-monitor.h',
        'helper/flow-backend.h',
        'helper/linux-backend.h',
        'helper/linux-flow-study.h',
        'helper/linux-testbed.h',
        'helper/linux-training-apps.h',
        'helper/packet-backend.h',
        'helper/program-options.h',
        'helper/scenario-options.h',
        'helper/sweep-engine.h',
        'helper/progress-reporter.h',
        'helper/training-backend.h',
        'helper/training-cluster-helper.h',
        'helper/validation-matrix.h',
        'model/allreduce-sharing.h',
        'model/async-ps-model.h',
        'model/calibrated-sharing.h',
        'model/capped-sharing.h',
        'model/cynthia-model.h',
        'model/distributed-training-compat.h',
        'model/fabric-ecmp-routing.h',
        'model/fabric-topology.h',
        'model/fcfs-sharing.h',
        'model/flow-event-core.h',
        'model/flow-ps-engine.h',
        'model/flow-rate-class.h',
        'model/flow-ring-engine.h',
        'model/json-input.h',
        'model/flow-level-simulator.h',
        'model/mva-solver.h',
        'model/osf-model.h',
        'model/parameter-server-application.h',
        'model/ps-read-bounds-model.h',
        'model/ps-sharing.h',
        'model/record-stream.h',
        'model/ring-allreduce-application.h',
        'model/ring-allreduce-model.h',
        'model/sharing-index.h',
        'model/sharing-model.h',
        'model/split-mix64.h',
        'model/sync-ps-model.h',
        'model/tcp-linux-cubic.h',
        'model/linux-buffer-tuner.h',
        'model/tensor-chunk-header.h',
        'model/tensor-connection.h',
        'model/tensor-fusion.h',
        'model/training-app-attributes.h',
        'model/training-input-error.h',
        'model/training-network.h',
        'model/training-profile.h',
        'model/training-result.h',
        'model/training-scenario.h',
        'model/training-worker-application.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
