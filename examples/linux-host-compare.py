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
# (--delayedAck), autotune (--bufferAutotuning), jitter (--startJitter=20us); hostq (hosts' NICs
# of 1000 packets, not part of the preset) for the experiment of doc/validation/linux-preset.rst;
# linux-rwnd: the preset with LinuxBufferTuner's LimitReceiveWindow true (the autotuned window
# advertised); tsq: TCP small queues (--tcpSmallQueues, part of the preset; skbs of up to
# 64 KiB as Linux's GSO sizing); tsqseg: TSQ with one-segment skbs (GsoMaxSize 0, the model
# before GSO sizing); tsqfloor: tsqseg with its two-segment floor as the only limit (PacingShift
# 31); notsq: without TCP small queues (linux+notsq: the preset before TSQ joined it). Names
# joined by "+" combine them (cc+autotune, linux+hostq). A "-dil" suffix (stock-dil, linux-dil,
# cc+autotune-dil, ...) runs ns-3 at the linux run's dilation (--dilation: the network the linux
# run executed, with TCP's timers unscaled): sharing at DILATION (default 40), training at each
# scenario's linux_options dilation. Writes
#   OUT/host-sharing-CONFIG.csv, OUT/host-training-CONFIG.csv  the ns-3 runs
#   OUT/host-sharing.rst, OUT/host-training.rst               the comparison tables
# (TABLE names the training table instead). ns-3 runs go JOBS (default 2) at a time under nice
# NICE (default 19). Sharing: a CSV that exists is reused (delete it to re-run). Training: a CSV
# that exists keeps its rows and only the missing points run (delete a row to re-run it); POINTS
# (e.g. "grid-1000p:4,grid-100p:8") limits the scenarios and K of the runs and the tables, which
# give mean and max |error| over all points and per group: sync PS, async PS, the ring.
# Environment: BUILD (default build); RECORDS=1 writes each training run's records beside its
# JSON (OUT/host-training-CONFIG-SCENARIO-K.jsonl) and a third table, TABLE with "-congestion"
# before its extension: drops at the PS's own NIC, all drops, RTOs, and the pull and push
# spreads of transfer-phases.py --spread.
import csv, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

# The preset's settings, each added on its own to stock ns-3 (doc/reference/host-model.rst).
SETTINGS = {
    'cc': ['--tcp=LINUX'],  # replaced by TcpLinuxCubic or TcpLinuxReno
    'delack': ['--delayedAck=true'],
    'autotune': ['--bufferAutotuning=true'],
    'jitter': ['--startJitter=20us'],
    # The preset with the autotuned receive window advertised (LinuxBufferTuner attribute).
    'linux-rwnd': ['--hostModel=linux', '--ns3::LinuxBufferTuner::LimitReceiveWindow=true'],
    # Not part of the preset: hosts' NICs of 1000 packets (the grid's other buffer size), standing
    # in for what keeps a Linux sender from losing segments in its own qdisc (TCP small queues,
    # and a local qdisc drop is returned to TCP, which backs off and resends: no loss recovery).
    'hostq': ['--hostQueue=1000p'],
    # Not part of the preset: Linux's TCP small queues (TcpSmallQueuesSocket), what hostq stood
    # in for (doc/validation/linux-preset.rst, "TCP small queues").
    'tsq': ['--tcpSmallQueues=true'],
    # TSQ with the two-segment floor as the only limit (no pacing-rate term: 2^-31 s of it).
    'tsqfloor': ['--tcpSmallQueues=true', '--ns3::TcpSmallQueuesSocket::PacingShift=31',
                 '--ns3::TcpSmallQueuesSocket::GsoMaxSize=0'],
    'tsqseg': ['--tcpSmallQueues=true', '--ns3::TcpSmallQueuesSocket::GsoMaxSize=0'],
    'notsq': ['--tcpSmallQueues=false'],
}
CONFIGS = {'stock': [], 'linux': ['--hostModel=linux']}
CONFIGS.update(SETTINGS)
SHARING_DEFAULT = ['stock', 'linux', 'cc', 'delack', 'autotune', 'jitter', 'stock-dil', 'linux-dil']
TRAINING_DEFAULT = ['linux', 'stock-dil', 'linux-dil']
LINUX_CC = {'TcpCubic': 'TcpLinuxCubic', 'TcpNewReno': 'TcpLinuxReno'}
NICE = os.environ.get('NICE', '19')
# The sharing grid's sizes; SIZES (bytes, space-separated) limits them and SHARING_ARGS adds
# options to every ns-3 run, as in examples/linux-validation.sh sharing.
def parse_sizes(text):
    try:
        sizes = [int(x) for x in text.split()]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) <= 0:
        sys.exit('linux-host-compare.py: SIZES="%s" (expected flow sizes in bytes, positive '
                 'integers separated by spaces, e.g. "30000 100000")' % text)
    return sizes


SIZES = parse_sizes(os.environ.get(
    'SIZES', '30000 100000 300000 1000000 3000000 10000000 30000000'))
SHARING_ARGS = os.environ.get('SHARING_ARGS', '').split()


def config_flags(config):
    """The driver arguments of CONFIG: names of CONFIGS joined by '+' (cc+autotune, linux+hostq),
    with a '-dil' suffix for the linux run's dilation; exits naming the configuration if unknown."""
    base = config[:-4] if config.endswith('-dil') else config
    parts = base.split('+')
    if any(p not in CONFIGS for p in parts):
        sys.exit('linux-host-compare.py: unknown configuration "%s" (expected names of %s joined '
                 'by +, optionally with -dil)' % (config, ', '.join(CONFIGS)))
    flags = [a for p in parts for a in CONFIGS[p]]
    return flags + (['--dilation=DIL'] if config.endswith('-dil') else [])


def config_args(config, tcp, dilation):
    out = []
    for a in config_flags(config):
        if a == '--tcp=LINUX':
            a = '--tcp=' + LINUX_CC[tcp]
        elif a == '--dilation=DIL':
            a = '--dilation=%g' % dilation
        out.append(a)
    return out


def run(cmd):
    # From the repository's root: the scenario files name profiles relative to it.
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    p = subprocess.run(['nice', '-n', NICE] + cmd, capture_output=True, text=True, cwd=root)
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
                tcpArg = [] if '--tcp=LINUX' in config_flags(config) else ['--tcp=' + tcp]
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
    width = max([14] + [len(c) for c in configs])  # an rst column holds its longest name
    sep = '=' * width + ' ======== ========== ========= ' + ' '.join(['======='] * len(SIZES))
    lines = [sep, '%-*s points   mean \\|d\\| max \\|d\\| ' % (width, 'config') + ' '.join(
        '%-7s' % ('%gK' % (x / 1000)) for x in SIZES), sep]
    cells = {}
    for config in configs:
        mine = lambdas(sharing_runs(out, build, config))
        keys = [k for k in ref if ref[k] is not None and mine.get(k) is not None]
        d = [abs(mine[k] - ref[k]) for k in keys]
        per = ['%-7.2f' % (sum(abs(mine[k] - ref[k]) for k in keys if k[2] == x) /
                           max(1, sum(1 for k in keys if k[2] == x))) for x in SIZES]
        cells[config] = mine
        lines.append('%-*s %-8d %-10.3f %-9.3f ' % (width, config, len(d), sum(d) / len(d), max(d))
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


def category(opts):
    """The comparison's groups: the ring, async PS (the grid runs it for 4 steps after 1 warm-up,
    transient-dominated) and sync PS."""
    if opts.get('arch') == 'ring':
        return 'ring'
    return 'async' if opts.get('mode') == 'async' else 'sync'


def option(name, value):
    return '--%s=%s' % (name, str(value).lower() if isinstance(value, bool) else value)


def result_row(res):
    """(throughput, drops, RTOs) of one driver output."""
    r = json.load(open(res))['results'][0]
    inputs = r.get('inputs', {})
    drops = inputs.get('drops_device', 0) + inputs.get('drops_queue_disc', 0)
    return {'throughput': '%.4f' % r['throughput_samples_per_s'], 'drops': '%g' % drops,
            'rto': '%g' % inputs.get('rto_timeouts', 0)}


# RECORDS=1: keep each training run's records and write the congestion table.
RECORDS = os.environ.get('RECORDS', '0') == '1'


def records(res):
    """RECORDS=1 keeps each run's records next to its result (RES.jsonl, for
    examples/transfer-phases.py --spread); by default none are written."""
    if RECORDS:
        return '--recordsFile=' + res[:-len('.json')] + '.jsonl'
    return '--records=false'


def training_runs(out, build, points, config):
    """OUT/host-training-CONFIG.csv with every point of POINTS: the rows it already holds are kept
    (delete a row or the file to re-run it), the missing points are run."""
    path = os.path.join(out, 'host-training-%s.csv' % config)
    rows = {}
    if os.path.exists(path):
        rows = {(r['scenario'], r['K']): r for r in csv.DictReader(open(path))}
    tasks = []
    for (name, k), (opts, dilation) in sorted(points.items()):
        if (name, k) in rows:
            continue
        tcp = opts.get('tcp', 'TcpCubic')
        args = [option(o, v) for o, v in opts.items()
                if not (o == 'tcp' and '--tcp=LINUX' in config_flags(config))]
        res = os.path.join(out, 'host-training-%s-%s-%s.json' % (config, name, k))
        tasks.append((name, k, res, [os.path.join(build, 'bin', 'distributed-training-sim')]
                      + args + config_args(config, tcp, dilation)
                      + ['--workers=' + k, '--backend=packet', '--output=' + res,
                         records(res), '--progress=false']))
    with ThreadPoolExecutor(int(os.environ.get('JOBS', '2'))) as pool:
        list(pool.map(lambda t: os.path.exists(t[2]) or run(t[3]), tasks))
    for name, k, res, _ in tasks:
        if os.path.exists(res):
            rows[(name, k)] = dict(scenario=name, K=k, **result_row(res))
    with open(path, 'w') as f:
        f.write('scenario,K,throughput,drops,rto\n')
        for key in sorted(rows, key=lambda x: (x[0], int(x[1]))):
            r = rows[key]
            f.write('%s,%s,%s,%s,%s\n' % (key[0], key[1], r['throughput'], r['drops'], r['rto']))
    return {key: r for key, r in rows.items() if key in points}


def spread(jsonl):
    """(pull, push) spread of a run's records (examples/transfer-phases.py --spread)."""
    here = os.path.dirname(os.path.abspath(__file__))
    p = subprocess.run([sys.executable, os.path.join(here, 'transfer-phases.py'), jsonl,
                        '--spread'], capture_output=True, text=True)
    m = re.search(r'down ([0-9.]+)\s+up ([0-9.]+)', p.stdout)
    return (m.group(1), m.group(2)) if m else ('-', '-')


def congestion_table(out, points, configs):
    """With RECORDS=1: per point and configuration, samples/s, drops at the PS's own NIC
    (server0->switch), all drops, RTO expiries and the pull and push spreads, an rst table
    OUT/TABLE with -congestion before its extension."""
    cw = max([20] + [len(c) for c in configs])  # an rst column holds its longest name
    sw = max([14] + [len(name) for name, _ in points])
    rule = '=' * sw + ' === ' + ' '.join(['=' * cw, '=' * 9] + ['=' * 6] * 5)
    lines = [rule, '%-*s %-3s %-*s %-9s %-6s %-6s %-6s %-6s %-6s' % (
        sw, 'scenario', 'K', cw, 'configuration', 'samples/s', 'PS NIC', 'drops', 'RTOs', 'pull',
        'push'), rule]
    for (name, k) in sorted(points, key=lambda x: (x[0], int(x[1]))):
        for config in configs:
            res = os.path.join(out, 'host-training-%s-%s-%s.json' % (config, name, k))
            if not os.path.exists(res):
                continue
            r = json.load(open(res))['results'][0]
            i = r.get('inputs', {})
            pull, push = spread(res[:-len('.json')] + '.jsonl')
            lines.append('%-*s %-3s %-*s %-9.1f %-6g %-6g %-6g %-6s %-6s' % (
                sw, name, k, cw, config, r['throughput_samples_per_s'],
                i.get('drops:server0->switch', 0),
                i.get('drops_device', 0) + i.get('drops_queue_disc', 0),
                i.get('rto_timeouts', 0), pull, push))
    lines.append(rule)
    base, ext = os.path.splitext(os.environ.get('TABLE', 'host-training.rst'))
    text = '\n'.join(line.rstrip() for line in lines) + '\n'
    open(os.path.join(out, base + '-congestion' + ext), 'w').write(text)
    print(text)


def linux_reference(results_csv):
    """(scenario, K) -> linux samples/s, ('packet', scenario, K) -> the runner's packet run."""
    ref = {}
    for r in csv.DictReader(open(results_csv)):
        if r['backend'] == 'linux':
            ref[(r['scenario'], r['workers'])] = float(r['throughput_samples_per_s'])
        elif r['backend'] == 'packet':
            ref.setdefault(('packet', r['scenario'], r['workers']), float(r['throughput_samples_per_s']))
    return ref


def error_cells(errs):
    """'n  mean% (max%)' of |errors|, or '-'."""
    if not errs:
        return '%-19s' % '-'
    return '%-19s' % ('%d  %.1f%% (%.1f%%)' % (len(errs), 100 * sum(errs) / len(errs),
                                                100 * max(errs)))


def training(out, build, results_csv, matrix, configs):
    ref = linux_reference(results_csv)
    points = grid_points(matrix)
    groups = ['sync', 'async', 'ring']
    width = max(len(c) for c in configs + ['grid packet'])
    sep = '=' * width + ' ' + ' '.join(['=' * 19] * (1 + len(groups)))
    lines = [sep, '%-*s ' % (width, 'config') + ' '.join('%-19s' % g for g in ['all'] + groups), sep]
    per = {}
    errs = {}
    for config in configs:
        for key, r in training_runs(out, build, points, config).items():
            if key in ref:
                e = (float(r['throughput']) - ref[key]) / ref[key]
                per.setdefault(key, {})[config] = (e, float(r['throughput']))
                errs.setdefault(config, []).append((category(points[key][0]), abs(e)))
    # The runner's own packet runs (stock ns-3, undilated) at the same points.
    errs['grid packet'] = [(category(points[k][0]), abs(ref[('packet',) + k] - ref[k]) / ref[k])
                           for k in per if ('packet',) + k in ref]
    for config in configs + ['grid packet']:
        e = errs.get(config, [])
        lines.append('%-*s ' % (width, config) + ' '.join(
            error_cells([x for g, x in e if g in groups_ or []]) for groups_ in
            [groups] + [[g] for g in groups]))
    lines.append(sep)
    lines += ['', 'each cell: points  mean |error| (max |error|) against linux', '']
    # Per point: samples/s (error against linux in %), an rst table.
    cols = ['linux backend', 'grid packet'] + configs
    cw = max([15] + [len(c) for c in cols])  # an rst column holds its longest name
    sw = max([14] + [len(key[0]) for key in per])
    rule = '=' * sw + ' === ' + ' '.join(['=' * cw] * len(cols))
    lines += [rule, '%-*s %-3s ' % (sw, 'scenario', 'K')
              + ' '.join('%-*s' % (cw, c) for c in cols), rule]
    for key in sorted(per, key=lambda x: (groups.index(category(points[x][0])), x[0], int(x[1]))):
        packet = ref.get(('packet',) + key)
        cells = ['%.1f' % ref[key], '%.1f (%+.1f)' % (packet, 100 * (packet - ref[key]) / ref[key])
                 if packet else '-']
        cells += ['%.1f (%+.1f)' % (per[key][c][1], 100 * per[key][c][0]) if c in per[key] else '-'
                  for c in configs]
        lines.append('%-*s %-3s ' % (sw, key[0], key[1]) + ' '.join('%-*s' % (cw, c) for c in cells))
    lines.append(rule)
    text = '\n'.join(line.rstrip() for line in lines) + '\n'
    open(os.path.join(out, os.environ.get('TABLE', 'host-training.rst')), 'w').write(text)
    print(text)
    if RECORDS:
        congestion_table(out, points, configs)


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
