// Training and evaluation in JS: the core's DQN / PPO trainer and `sysgym eval`, the same C++ as
// the native tool's. The trainer runs in slices (advance() returns at each learning-curve point)
// so a caller can draw progress, write checkpoints or yield to a browser's event loop between
// them. The WebAssembly build steps its envs on one thread: expect several times the native
// tool's time for the same run (docs/performance.md's table), with the same results.
import { ApiMisuseError, finalizer, lastError, seedText, strings, text } from './errors.mjs';

// Integer options arrive as text, checked by the core with the native flags' ranges and messages
// ('' for an option not given).
function integerText(value, name) {
  if (value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return String(value);
  throw new ApiMisuseError(`${name} must be an integer, got ${typeof value}`);
}

// An env config as `--config` text: an object, or JSON text already.
function configText(config, name) {
  if (config === undefined) return '';
  if (typeof config === 'string') return config;
  if (config !== null && typeof config === 'object' && !Array.isArray(config)) return JSON.stringify(config);
  throw new ApiMisuseError(`${name} must be an object or JSON text`);
}

export class Trainer {
  #core;
  #handle;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    finalizer.register(this, handle, this);
  }

  get agent() {
    return this.#live().agent();
  }

  get envSteps() {
    return this.#live().envSteps();
  }

  // Trains until the next curve point or `target` env steps, whichever comes first: the point
  // ({env_steps, episodes, mean_return, mean_metric, loss}), or null when the target came first.
  advance(target) {
    const made = this.#live().advance(integerText(target, 'advance: target'));
    if (made < 0) throw lastError(this.#core);
    return made === 1 ? JSON.parse(this.#handle.pointJson()) : null;
  }

  // Trains until `steps` env steps, calling onPoint(point) at each curve point; the last point.
  train(steps, onPoint = () => {}) {
    if (typeof onPoint !== 'function') throw new ApiMisuseError('train: onPoint must be a function');
    let last = null;
    while (this.envSteps < Number(steps)) {
      const point = this.advance(steps);
      if (point) {
        last = point;
        onPoint(point);
      }
    }
    return last ?? JSON.parse(this.#live().pointJson());
  }

  // `sysgym train`'s progress line at the last point, and its two closing lines.
  progressText(totalSteps, stepsPerSecond) {
    return this.#live().progressText(Number(totalSteps), stepsPerSecond);
  }

  summaryText(newSteps, seconds, output, curve = '') {
    return this.#live().summaryText(newSteps, seconds, text(output, 'summaryText: output'), text(curve, 'summaryText: curve'));
  }

  // The policy file (JSON text) that `sysgym run --policy learned --policy-config FILE`, `sysgym
  // eval` and the playground load; `seconds` is recorded in its training facts.
  policy(seconds = 0) {
    return this.#live().policyText(seconds);
  }

  // The policy so far, as OUTPUT.checkpoint holds it.
  checkpoint() {
    return this.#live().checkpointText();
  }

  // The whole training state (CBOR bytes, as OUTPUT.state), to continue with sysgym.resumeTrainer
  // or the native `sysgym train --resume`.
  state() {
    return new Uint8Array(this.#live().stateView());
  }

  // The learning curve as CSV (`sysgym train --curve`).
  curveCsv() {
    return this.#live().curveCsv();
  }

  dispose() {
    if (!this.#handle) return;
    finalizer.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }

  #live() {
    if (!this.#handle) throw new ApiMisuseError('this trainer was disposed');
    return this.#handle;
  }
}

// sysgym.trainer({...}): the request as `sysgym train` takes it.
export function makeTrainer(core, {
  env, config, settings = [], vary = [], envs, agent = '', agentConfig, seed = 0, curveEvery,
} = {}) {
  const request = {
    env: text(env, 'trainer: env'),
    config: configText(config, 'trainer: config'),
    settings: strings(settings, 'trainer: settings'),
    vary: strings(vary, 'trainer: vary'),
    envs: integerText(envs, 'trainer: envs'),
    agent: text(agent, 'trainer: agent'),
    agent_config: configText(agentConfig, 'trainer: agentConfig'),
    seed: seedText(core, seed, '--seed'),
    curve_every: integerText(curveEvery, 'trainer: curveEvery'),
  };
  const handle = core.TrainerHandle.make(JSON.stringify(request));
  if (!handle) throw lastError(core);
  return new Trainer(core, handle);
}

export function resumeTrainer(core, state, name = 'state') {
  if (!(state instanceof Uint8Array)) throw new ApiMisuseError('resumeTrainer: state must be a Uint8Array (OUTPUT.state\'s bytes)');
  const handle = core.TrainerHandle.resume(state, text(name, 'resumeTrainer: name'));
  if (!handle) throw lastError(core);
  return new Trainer(core, handle);
}

// The exact text `sysgym eval [--json]` prints: `policies` are [{path, text}] (the policy files'
// names and contents); the rest as the command line gives it.
export function evalReport(core, {
  policies, env = '', config, settings = [], vary = [], baselines = [], seed = 0, seeds = 1,
} = {}, json = true) {
  if (!Array.isArray(policies) || policies.length === 0) throw new ApiMisuseError('evalReport: give policies as [{path, text}]');
  const request = {
    policies: policies.map((p, i) => ({ path: text(p?.path, `evalReport: policies[${i}].path`), text: text(p?.text, `evalReport: policies[${i}].text`) })),
    env: text(env, 'evalReport: env'),
    config: configText(config, 'evalReport: config'),
    settings: strings(settings, 'evalReport: settings'),
    vary: strings(vary, 'evalReport: vary'),
    baselines: strings(baselines, 'evalReport: baselines'),
    seed: seedText(core, seed, '--seed'),
    seeds: seedText(core, seeds, '--seeds'),
  };
  const out = core.evalReportText(JSON.stringify(request), json === true);
  if (out === '') throw lastError(core);
  return out;
}
