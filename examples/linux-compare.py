#!/usr/bin/env python3
# Error tables against real TCP (issue 14): runs each scenario of a list through the linux
# backend and through --backend=all (packet, every flow sharing model, every analytic form),
# one process at a time (the linux runs are real time), and writes
#   OUT/linux-compare.csv   one row per (scenario, K, backend:variant): throughput, the linux
#                           throughput, relative error, the 1-minute load before the linux run
#   OUT/linux-compare.rst   mean |relative error| per model and category (shaped like 000 Table 1)
#
#   python3 examples/linux-compare.py OUT scenario-file
# scenario-file: one scenario per line, "category name K driver-options..." ('#' comments).
# With REUSE=1 the other backends' throughputs are taken from an existing OUT/linux-compare.csv
# (they are deterministic simulations) and only the linux runs are repeated. The linux runs go at
# nice LINUX_NICE (default -5, root): real-time runs must not queue behind other work.
import json, os, subprocess, sys, time

def load1():
    return float(open('/proc/loadavg').read().split()[0])

def run(sim, opts, backend, out):
    cmd = (['nice', '-n', os.environ.get('LINUX_NICE', '-5')] if backend == 'linux' else []) + [sim] + opts + ['--backend=' + backend, '--output=' + out, '--records=false',
                          '--progress=false']
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1:] or ['exit %d' % p.returncode], 0
    return json.load(open(out))['results'], None, time.time() - t

def main():
    out, listing = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    sim = os.environ.get('SIM', os.path.join(here, '..', 'build', 'bin', 'distributed-training-sim'))
    os.makedirs(out, exist_ok=True)
    rows, errors, previous = [], {}, {}
    path = os.path.join(out, 'linux-compare.csv')
    if os.environ.get('REUSE') == '1' and os.path.exists(path):
        for row in list(open(path))[1:]:
            f = row.strip().split(',')
            previous.setdefault((f[1], f[2]), []).append({
                'backend': f[3].split(':')[0], 'variant': f[3].split(':', 1)[1],
                'throughput_samples_per_s': float(f[4]), 'wall': float(f[9])})
    csv = open(path, 'w')
    csv.write('category,scenario,K,model,throughput,linux_throughput,rel_error,load1,'
              'linux_wall_s,others_wall_s\n')
    for line in open(listing):
        line = line.split('#')[0].split()
        if not line:
            continue
        cat, name, k, opts = line[0], line[1], line[2], line[3:] + ['--workers=' + line[2]]
        l = load1()
        lin, err, lwall = run(sim, opts, 'linux', os.path.join(out, 'linux.json'))
        if err:
            print('%s K=%s: linux failed: %s' % (name, k, err[0]), flush=True)
            continue
        ref = lin[0]['throughput_samples_per_s']
        # The other backends do not take --dilation (a linux-only option, ignored by them).
        if (name, k) in previous:
            others, err, owall = previous[(name, k)], None, previous[(name, k)][0]['wall']
        else:
            others, err, owall = run(sim, [o for o in opts if not o.startswith('--dilation')],
                                     'all', os.path.join(out, 'all.json'))
        if err:
            print('%s K=%s: all failed: %s' % (name, k, err[0]), flush=True)
            continue
        for r in others:
            model = r['backend'] + ':' + r['variant']
            e = (r['throughput_samples_per_s'] - ref) / ref
            errors.setdefault(model, {}).setdefault(cat, []).append(abs(e))
            csv.write('%s,%s,%s,%s,%.4f,%.4f,%.4f,%.2f,%.1f,%.1f\n' % (
                cat, name, k, model, r['throughput_samples_per_s'], ref, e, l, lwall, owall))
        csv.flush()
        print('%s K=%s: linux %.2f samples/s (load %.2f, %.1f s wall; others %.1f s)' % (
            name, k, ref, l, lwall, owall), flush=True)
    cats = sorted({c for m in errors.values() for c in m})
    with open(os.path.join(out, 'linux-compare.rst'), 'w') as f:
        w = [28] + [max(14, len(c) + 2) for c in cats]
        sep = ' '.join('=' * x for x in w)
        f.write(sep + '\n' + ' '.join(h.ljust(x) for h, x in zip(['model'] + cats, w)) + '\n' +
                sep + '\n')
        for m in sorted(errors):
            cells = []
            for c in cats:
                v = errors[m].get(c)
                cells.append('%.1f%% (%d)' % (100 * sum(v) / len(v), len(v)) if v else '-')
            f.write(' '.join(s.ljust(x) for s, x in zip([m] + cells, w)) + '\n')
        f.write(sep + '\n')
    print(open(os.path.join(out, 'linux-compare.rst')).read())

main()
