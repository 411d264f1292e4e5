// The npm bin's `sysgym profile [flags] -- COMMAND...`: the command run inside sysgym.profile, its
// report as the native tool prints it (the core's table), plus the JS <-> WebAssembly crossings;
// the same command timed unprofiled in this process, alternating with the profiled runs, each
// side's fastest (as natively).
import { writeAtomically } from './node_files.mjs';
import { ConfigError } from './index.mjs';

// Runs `body` with the process's stdout (and, with `stderr`, its stderr) writes sent to `to`.
async function withOutput(to, stderr, body) {
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = to;
  if (stderr) process.stderr.write = to;
  try {
    return await body();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

// The command's time without the profiler, in this process (the span a profiled run times, with
// the same data already loaded once a first run has loaded it), its output discarded; -1 when it
// fails.
async function unprofiledMs(dispatch, command) {
  const start = performance.now();
  try {
    await withOutput(() => true, true, () => dispatch(command));
  } catch {
    return -1;  // the profiled run shows the command's own error
  }
  return performance.now() - start;
}

// `dispatch(argv)` runs one bin command (throwing what it throws).
export async function profileCommand(sysgym, values, command, dispatch) {
  if (command.length === 0) {
    throw new ConfigError('profile: name the command to profile after --, e.g. sysgym profile -- train memtier-v0 --steps 2000 -o p.json');
  }
  if (command[0] === 'profile') throw new ConfigError('profiling is already on in this run: profile cannot be nested in itself');
  // Checked by the core with the native flags' ranges and messages.
  const runs = Number(sysgym.checkInteger(values.runs ?? '1', '--runs', 1, 100));
  const maxEvents = Number(sysgym.checkInteger(values['max-events'] ?? '200000', '--max-events', 1, 50000000));
  let unprofiled = -1;
  let fastest = null;
  for (let i = 0; i < runs && !fastest?.error; ++i) {
    if (!values['no-baseline']) {
      const ms = await unprofiledMs(dispatch, command);
      if (ms > 0 && (unprofiled < 0 || ms < unprofiled)) unprofiled = ms;
    }
    // With --json the report takes stdout: the command's own output goes to stderr meanwhile.
    const run = await withOutput(values.json ? process.stderr.write.bind(process.stderr) : process.stdout.write, false,
      () => sysgym.profile(() => dispatch(command), {
        maxEvents: values['chrome-trace'] !== undefined ? maxEvents : 0, partial: true,
      }));
    if (!fastest || run.error || run.report.wall_ms < fastest.report.wall_ms) fastest = run;
  }
  if (fastest.error && !values.partial) throw fastest.error;
  const report = { ...fastest.report, runs, command };
  if (!fastest.error && unprofiled > 0) {
    Object.assign(report, {
      unprofiled_ms: unprofiled,
      corrected_error: report.corrected_wall_ms / unprofiled - 1,
      uncorrected_overhead: report.wall_ms / unprofiled - 1,
    });
  }
  if (values['chrome-trace'] !== undefined) {
    const trace = fastest.chromeTrace();
    trace.otherData = { ...trace.otherData, partial: Boolean(fastest.error) };
    writeAtomically(values['chrome-trace'], `${JSON.stringify(trace)}\n`);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    if (fastest.error) process.stdout.write('partial profile: the command failed\n');
    process.stdout.write(sysgym.profileText(report));
  }
  if (fastest.error) throw fastest.error;
}
