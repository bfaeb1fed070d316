#!/usr/bin/env python3
# ns-3 with the Linux-host preset against the linux backend (issue 15): runs the ns-3 side of the
# sharing grid (tcp-sharing-study) and of the training grid (distributed-training-sim
# --backend=packet) once per host configuration, and compares each with the linux backend's
# measurements, which come from the existing scripts (real time, root):
#   DILATION=40 bash examples/linux-validation.sh sharing OUT   -> OUT/linux-sharing-linux.csv
#   ./build/bin/validation-runner --matrix=validation/matrix-linux-grid.json --out=OUT
#                                                                -> OUT/results.csv
#
#   python3 examples/linux-host-compare.py sharing  OUT LINUX_SHARING_CSV [CONFIG...]
#   python3 examples/linux-host-compare.py training OUT RESULTS_CSV MATRIX_JSON [CONFIG...]
#
# Configurations (default: all): stock (the module's ns-3 TCP), linux (--hostModel=linux), and
# one setting of the preset at a time on top of stock: cc (Linux CUBIC/Reno), delack
# (--delayedAck), autotune (--bufferAutotuning), jitter (--startJitter=20us); linux-rwnd: the
# preset with LinuxBufferTuner's LimitReceiveWindow true (the autotuned window advertised). A
# "-dil" suffix (stock-dil, linux-dil, cc-dil, ...) runs ns-3 at the linux run's dilation
# (--dilation: the network the linux run executed, with TCP's timers unscaled): sharing at
# DILATION (default 40), training at each scenario's linux_options dilation. Writes
#   OUT/host-sharing-CONFIG.csv, OUT/host-training-CONFIG.csv  the ns-3 runs
#   OUT/host-sharing.rst, OUT/host-training.rst               the comparison tables
# ns-3 runs go JOBS (default 2) at a time under nice 10; a CSV that exists is reused (delete it
# to re-run). Training: POINTS (e.g. "grid-1000p:4,grid-100p:8") limits the scenarios and K.
# Environment: BUILD (default build).
import csv, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

CONFIGS = {
    'stock': [],
    'linux': ['--hostModel=linux'],
    'cc': ['--tcp=LINUX'],  # replaced by TcpLinuxCubic or TcpLinuxReno
    'delack': ['--delayedAck=true'],
    'autotune': ['--bufferAutotuning=true'],
    'jitter': ['--startJitter=20us'],
    # The preset with the autotuned receive window advertised (LinuxBufferTuner attribute).
    'linux-rwnd': ['--hostModel=linux', '--ns3::LinuxBufferTuner::LimitReceiveWindow=true'],
}
# CONFIG-dil: CONFIG at the linux run's dilation.
CONFIGS.update({name + '-dil': args + ['--dilation=DIL'] for name, args in list(CONFIGS.items())})
SHARING_DEFAULT = ['stock', 'linux', 'cc', 'delack', 'autotune', 'jitter', 'stock-dil', 'linux-dil']
TRAINING_DEFAULT = ['linux', 'stock-dil', 'linux-dil']
LINUX_CC = {'TcpCubic': 'TcpLinuxCubic', 'TcpNewReno': 'TcpLinuxReno'}
# The sharing grid's sizes; SIZES (bytes, space-separated) limits them and SHARING_ARGS adds
# options to every ns-3 run, as in examples/linux-validation.sh sharing.
SIZES = [int(x) for x in os.environ.get(
    'SIZES', '30000 100000 300000 1000000 3000000 10000000 30000000').split()]
SHARING_ARGS = os.environ.get('SHARING_ARGS', '').split()


def config_args(config, tcp, dilation):
    out = []
    for a in CONFIGS[config]:
        if a == '--tcp=LINUX':
            a = '--tcp=' + LINUX_CC[tcp]
        elif a == '--dilation=DIL':
            a = '--dilation=%g' % dilation
        out.append(a)
    return out


def run(cmd):
    # From the repository's root: the scenario files name profiles relative to it.
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    p = subprocess.run(['nice', '-n', '10'] + cmd, capture_output=True, text=True, cwd=root)
    if p.returncode != 0:
        print('failed (exit %d): %s: %s' % (p.returncode, ' '.join(cmd), p.stderr.strip()[-300:]),
              flush=True)
    return p.returncode == 0


def sharing_runs(out, build, config):
    path = os.path.join(out, 'host-sharing-%s.csv' % config)
    if os.path.exists(path):
        return path
    tmp = path + '.parts'
    os.makedirs(tmp, exist_ok=True)
    jobs = []
    for tcp in ['TcpCubic', 'TcpNewReno']:
        for n in [2, 4, 8]:
            for size in SIZES:
                part = os.path.join(tmp, '%s-%d-%d.csv' % (tcp, n, size))
                if os.path.exists(part):
                    continue
                tcpArg = [] if '--tcp=LINUX' in CONFIGS[config] else ['--tcp=' + tcp]
                jobs.append([os.path.join(build, 'bin', 'tcp-sharing-study'), '--flows=%d' % n,
                             '--size=%d' % size, '--rate=200Mbps', '--queue=262144B',
                             '--csv=' + part] + tcpArg + SHARING_ARGS
                            + config_args(config, tcp, float(os.environ.get('DILATION', '40'))))
    with ThreadPoolExecutor(int(os.environ.get('JOBS', '2'))) as pool:
        list(pool.map(run, jobs))
    rows = []
    for tcp in ['TcpCubic', 'TcpNewReno']:
        for n in [2, 4, 8]:
            for size in SIZES:
                part = os.path.join(tmp, '%s-%d-%d.csv' % (tcp, n, size))
                if os.path.exists(part):
                    r = list(csv.DictReader(open(part)))[0]
                    r['tcp'] = tcp  # the algorithm, whichever implementation ran it
                    rows.append(r)
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    return path


def lambdas(path):
    """(tcp, N, S) -> lambda, or None where the fit does not hold (residual > 0.3, undefined)."""
    out = {}
    for r in csv.DictReader(open(path)):
        tcp = 'TcpNewReno' if 'Reno' in r['tcp'] else 'TcpCubic'
        ok = r['defined'] == '1' and float(r['residual']) <= 0.3
        out[(tcp, int(r['flows']), int(r['size_bytes']))] = float(r['lambda']) if ok else None
    return out


def sharing(out, build, linux_csv, configs):
    ref = lambdas(linux_csv)
    sep = '============== ======== ========== ========= ' + ' '.join(['======='] * len(SIZES))
    lines = [sep, 'config         points   mean |d|   max |d|   ' + ' '.join(
        '%-7s' % ('%gK' % (x / 1000)) for x in SIZES), sep]
    cells = {}
    for config in configs:
        mine = lambdas(sharing_runs(out, build, config))
        keys = [k for k in ref if ref[k] is not None and mine.get(k) is not None]
        d = [abs(mine[k] - ref[k]) for k in keys]
        per = ['%-7.2f' % (sum(abs(mine[k] - ref[k]) for k in keys if k[2] == x) /
                           max(1, sum(1 for k in keys if k[2] == x))) for x in SIZES]
        cells[config] = mine
        lines.append('%-14s %-8d %-10.3f %-9.3f ' % (config, len(d), sum(d) / len(d), max(d))
                     + ' '.join(per))
    lines.append(sep)
    grid = ['', '=================== ' + ' '.join(['=' * 17] * len(SIZES)),
            '%-19s ' % 'tcp, N' + ' '.join('%-17s' % ('%g KB' % (s / 1000)) for s in SIZES),
            '=================== ' + ' '.join(['=' * 17] * len(SIZES))]
    show = [c for c in ['stock', 'linux'] if c in cells]
    for tcp in ['TcpCubic', 'TcpNewReno']:
        for n in [2, 4, 8]:
            row = []
            for s in SIZES:
                vals = [cells[c].get((tcp, n, s)) for c in show] + [ref.get((tcp, n, s))]
                row.append('%-17s' % ' / '.join('-' if v is None else '%.2f' % v for v in vals))
            grid.append('%-19s ' % ('%s N=%d' % (tcp[3:], n)) + ' '.join(row))
    grid.append(grid[1])
    text = '\n'.join(lines + grid) + '\n'
    open(os.path.join(out, 'host-sharing.rst'), 'w').write(text)
    print(text)


def grid_points(matrix):
    """(scenario, K) -> (options, linux dilation) of a validation matrix, limited by POINTS."""
    import json
    m = json.load(open(matrix))
    keep = [p.split(':') for p in os.environ.get('POINTS', '').split(',') if p]
    out = {}
    for sc in m['scenarios']:
        opts = dict(m.get('defaults', {}))
        opts.update(sc.get('options', {}))
        opts['profile'] = sc['profile']
        for k in sc['workers']:
            if keep and [sc['name'], str(k)] not in keep:
                continue
            out[(sc['name'], str(k))] = (opts, sc.get('linux_options', {}).get('dilation', 1))
    return out


def option(name, value):
    return '--%s=%s' % (name, str(value).lower() if isinstance(value, bool) else value)


def training_runs(out, build, points, config):
    path = os.path.join(out, 'host-training-%s.csv' % config)
    if os.path.exists(path):
        return path
    tasks = []
    for (name, k), (opts, dilation) in sorted(points.items()):
        tcp = opts.get('tcp', 'TcpCubic')
        args = [option(o, v) for o, v in opts.items()
                if not (o == 'tcp' and '--tcp=LINUX' in CONFIGS[config])]
        res = os.path.join(out, 'host-training-%s-%s-%s.json' % (config, name, k))
        tasks.append((name, k, res, [os.path.join(build, 'bin', 'distributed-training-sim')]
                      + args + config_args(config, tcp, dilation)
                      + ['--workers=' + k, '--backend=packet', '--output=' + res,
                         '--records=false', '--progress=false']))
    with ThreadPoolExecutor(int(os.environ.get('JOBS', '2'))) as pool:
        list(pool.map(lambda t: os.path.exists(t[2]) or run(t[3]), tasks))
    import json
    with open(path, 'w') as f:
        f.write('scenario,K,throughput,drops,rto\n')
        for name, k, res, _ in tasks:
            if os.path.exists(res):
                r = json.load(open(res))['results'][0]
                inputs = r.get('inputs', {})
                drops = inputs.get('drops_device', 0) + inputs.get('drops_queue_disc', 0)
                f.write('%s,%s,%.4f,%g,%g\n' % (name, k, r['throughput_samples_per_s'], drops,
                                                inputs.get('rto_timeouts', 0)))
    return path


def training(out, build, results_csv, matrix, configs):
    ref = {}
    for r in csv.DictReader(open(results_csv)):
        if r['backend'] == 'linux':
            ref[(r['scenario'], r['workers'])] = float(r['throughput_samples_per_s'])
        elif r['backend'] == 'packet':
            ref.setdefault(('packet', r['scenario'], r['workers']), float(r['throughput_samples_per_s']))
    points = grid_points(matrix)
    sep = '============== ======== ============ ==========='
    lines = [sep, 'config         points   mean |err|   max |err|', sep]
    per = {}
    for config in configs:
        errs = []
        for r in csv.DictReader(open(training_runs(out, build, points, config))):
            key = (r['scenario'], r['K'])
            if key in ref:
                e = (float(r['throughput']) - ref[key]) / ref[key]
                errs.append(abs(e))
                per.setdefault(key, {})[config] = (e, float(r['throughput']))
        if errs:
            lines.append('%-14s %-8d %-12s %-11s' % (config, len(errs),
                                                     '%.1f%%' % (100 * sum(errs) / len(errs)),
                                                     '%.1f%%' % (100 * max(errs))))
    # The runner's own packet runs (stock ns-3, undilated) at the same points.
    grid = [abs(ref[('packet',) + k] - ref[k]) / ref[k] for k in per if ('packet',) + k in ref]
    if grid:
        lines.append('%-14s %-8d %-12s %-11s' % ('grid packet', len(grid),
                                                 '%.1f%%' % (100 * sum(grid) / len(grid)),
                                                 '%.1f%%' % (100 * max(grid))))
    lines.append(sep)
    lines += ['', 'samples/s and error against linux, per point (%s):' % ', '.join(configs), '']
    for key in sorted(per):
        packet = ref.get(('packet',) + key)
        lines.append('%-14s K=%-2s linux %7.1f  grid packet %s  %s' % (
            key[0], key[1], ref[key], '%7.1f' % packet if packet else '   -   ', '  '.join(
            '%7.1f (%+6.1f%%)' % (per[key][c][1], 100 * per[key][c][0]) if c in per[key]
            else '        -        ' for c in configs)))
    text = '\n'.join(lines) + '\n'
    open(os.path.join(out, 'host-training.rst'), 'w').write(text)
    print(text)


def main():
    mode, out = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.environ.get('BUILD', os.path.join(here, '..', 'build'))
    os.makedirs(out, exist_ok=True)
    if mode == 'sharing':
        sharing(out, build, sys.argv[3], sys.argv[4:] or SHARING_DEFAULT)
    elif mode == 'training':
        training(out, build, sys.argv[3], sys.argv[4], sys.argv[5:] or TRAINING_DEFAULT)
    else:
        sys.exit('usage: linux-host-compare.py sharing|training OUT LINUX_CSV [SCENARIOS] [CONFIG...]')


main()
