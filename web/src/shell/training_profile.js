// In the worker: one training run (the framework's trainer, any env) under sysgym.profile, as
// `sysgym profile -- train ... -o FILE` runs it natively: the trainer made, trained and its
// policy written out, all inside the profile. The page gets the report, its table and the
// timeline's events.
import { timelineEvents } from './chrome_trace.js';

// The timeline keeps this many scopes and calls (the report counts them all).
const MAX_EVENTS = 20000;
// Progress reaches the page (and a cancel the worker) this often; each pause is time in JS.
const PROGRESS_MS = 250;
// As the shipped native runs: no learning-curve points within a run.
const CURVE_EVERY = 100000;

// `run`: {env, config, agent, hidden, steps, seed}. `post` sends progress events; `cancelled()`
// says whether the page gave up on the run; `pause()` lets messages in.
export async function profileTraining(core, run, { post, cancelled, pause }) {
  const { env, config, agent, hidden, steps, seed } = run;
  const request = { env, config, agent, agentConfig: { hidden }, seed, curveEvery: CURVE_EVERY };
  // The data loaded and prepared once before, as in the shipped runs (the fastest of three in one
  // process): the profile shows training, not a first visit's trace preprocessing.
  core.trainer(request).dispose();
  let trainer = null;
  let stopped = false;
  const profile = await core.profile(async () => {
    trainer = core.trainer(request);
    const start = performance.now();
    let slice = 1;
    let nextPost = start + PROGRESS_MS;
    while (trainer.envSteps < steps) {
      const before = performance.now();
      trainer.advance(Math.min(steps, trainer.envSteps + slice));
      // Slices of a tenth to a fifth of the progress interval: few crossings, prompt progress
      // (steps slow down once learning starts).
      const took = performance.now() - before;
      if (took < PROGRESS_MS / 10) slice *= 2;
      else if (took > PROGRESS_MS / 5 && slice > 1) slice = Math.floor(slice / 2);
      if (performance.now() >= nextPost) {
        post({ kind: 'progress', envSteps: trainer.envSteps, steps });
        await pause();
        if (cancelled()) {
          stopped = true;
          return;
        }
        nextPost = performance.now() + PROGRESS_MS;
      }
    }
    trainer.policy((performance.now() - start) / 1000);
  }, { maxEvents: MAX_EVENTS });
  trainer?.dispose();
  if (stopped) return { cancelled: true };
  return { report: profile.report, text: profile.text, events: timelineEvents(profile.chromeTrace()) };
}
