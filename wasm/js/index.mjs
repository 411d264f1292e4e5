// sysgym for JavaScript: the C++ core compiled to WebAssembly, turned into JS idioms here.
// Observations, rewards and infos are zero-copy views into the module's memory: they are valid
// until the next reset()/step() of the same env, and are re-created whenever memory grows.
import createSysgymCore from './sysgym_core.cjs';

import {
  ApiMisuseError, ConfigError, EnvCheckError, InvalidActionError, IoError, SysgymError, TraceFormatError,
  UnknownNameError, bytes, check, finalizer, flag, lastError, parsed, quote, seedText, strings, text,
} from './errors.mjs';
import { Episode, comparing } from './episode.mjs';
import { infoReader } from './info.mjs';
import { Memtier } from './memtier.mjs';
import { Inline } from './inline.mjs';
import { Looptune } from './looptune.mjs';
import { Tensorplace } from './tensorplace.mjs';
import { Profile, profile, reportText } from './profiling.mjs';
import { Trainer, evalReport, makeTrainer, resumeTrainer } from './training.mjs';

export {
  ApiMisuseError, ConfigError, EnvCheckError, Episode, InvalidActionError, IoError, Memtier, SysgymError,
  Inline, Looptune, Profile, Tensorplace, TraceFormatError, Trainer, UnknownNameError,
};

// A space as Gymnasium has them: type, shape and bounds (the core's JSON), membership, and a
// generator of its own (seed(), sample()) run by the core, so draws are the same natively. A
// vector env's spaces are batched: `batch` members one after the other (shape [batch, ...]), the
// single env's space as `single`.
export class Space {
  #sampler;
  #single;

  constructor(spec, sampler, batch = 0) {
    Object.assign(this, spec);
    this.#sampler = sampler;
    this.#single = { ...spec, flatSize: spec.flat_size };
    this.batch = batch;
    this.flatSize = batch ? batch * spec.flat_size : spec.flat_size;
    const shape = spec.shape ?? (spec.type === 'Discrete' ? [] : [spec.flat_size]);
    this.shape = batch ? [batch, ...shape] : shape;
  }

  // The space one env of a batch has (itself when not batched).
  get single() {
    return this.batch ? new Space(this.#single, null) : this;
  }

  // Whether a flat array (or a number for one-element spaces) is a member: every row of a batch.
  contains(value) {
    const x = typeof value === 'number' ? [value] : Array.from(value ?? []);
    if (x.length !== this.flatSize) return false;
    const rows = this.batch || 1;
    for (let r = 0; r < rows; ++r) if (!elementsOk(this.#single, x, r * this.#single.flatSize)) return false;
    return true;
  }

  // Seeds the space's generator (Gymnasium's Space.seed): the draws that follow are fixed.
  seed(seed) {
    this.#live().seed(seed);
    return [seed];
  }

  // The next uniformly drawn member (a copy). sample(seed) seeds first: the same seed, the same draw.
  sample(seed) {
    if (seed !== undefined) this.seed(seed);
    return this.#live().sample();
  }

  #live() {
    if (!this.#sampler) throw new ApiMisuseError(`${this}: this space has no generator (a single env's space of a batch: sample the env's own)`);
    return this.#sampler;
  }

  toString() {
    const text = this.text ?? this.type;
    return this.batch ? `${this.batch} x ${text}` : text;
  }
}

// The generator of space `role` of an env or vector handle, through the core.
function coreSampler(core, live, role, Array_) {
  return {
    seed: (seed) => check(core, live().seedSpace(role, seedText(core, seed))),
    sample: () => {
      const h = live();
      h.sampleSpace(role);
      return Array_.from(h.sampleView(role));
    },
  };
}
const ACTION = 0;
const OBSERVATION = 1;

// An action as the core takes it: a number (one-element spaces) or an array-like of numbers of
// the space's flat size. Anything else is an InvalidActionError naming what was given.
function actionValues(action, space, what) {
  const values = typeof action === 'number' ? [action] : action;
  const arrayLike = (ArrayBuffer.isView(values) && !(values instanceof DataView)) || Array.isArray(values);
  if (!arrayLike) {
    const kind = typeof action;
    const got = action === undefined ? 'nothing' : action === null ? 'null'
      : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}${kind === 'string' ? ` (${JSON.stringify(action.slice(0, 20))})` : ''}`;
    throw new InvalidActionError(`${what} must be ${space.flatSize === 1 ? 'a number or ' : ''}an array of ${space.flatSize} numbers for ${space}, got ${got}`);
  }
  if (values.length !== space.flatSize) {
    throw new InvalidActionError(`${what} has ${values.length} elements, ${space} expects ${space.flatSize}`);
  }
  const bad = Array.isArray(values) ? values.findIndex((v) => typeof v !== 'number') : -1;
  if (bad >= 0) throw new InvalidActionError(`${what} element ${bad} is ${JSON.stringify(values[bad]) ?? String(values[bad])}, not a number`);
  return values;
}

function elementsOk(space, x, offset) {
  switch (space.type) {
    case 'Discrete': {
      const v = x[offset];
      return Number.isInteger(v) && v >= space.start && v < space.start + space.n;
    }
    case 'MultiBinary':
      return x.slice(offset, offset + space.n).every((v) => v === 0 || v === 1);
    case 'MultiDiscrete':
      return space.nvec.every((n, i) => Number.isInteger(x[offset + i]) && x[offset + i] >= 0 && x[offset + i] < n);
    case 'Box':
      return space.low.every((lo, i) => {
        const v = x[offset + i];
        const hi = space.high[i];
        return !Number.isNaN(v) && (lo === null || v >= lo) && (hi === null || v <= hi);
      });
    case 'Dict':
      return space.children.every((c) => elementsOk({ ...c.space, flatSize: c.space.flat_size }, x, offset + c.offset));
    default:
      return false;
  }
}

export class Env {
  #core;
  #handle;
  #buffer = null;
  #observation;
  #action;
  #result;
  #readInfo;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    const d = JSON.parse(handle.describeJson());
    this.id = d.id;
    this.config = d.config;
    this.facts = d.facts ?? {};
    this.infoKeys = d.info_keys;
    this.#readInfo = infoReader(this.infoKeys, 3);
    this.observationLayout = d.observation_layout ?? [];
    Object.assign(this, comparing(d));
    const live = () => this.#live();
    this.observationSpace = new Space({ ...d.observation_space, text: d.observation_space_text },
      coreSampler(core, live, OBSERVATION, Float32Array));
    this.actionSpace = new Space({ ...d.action_space, text: d.action_space_text }, coreSampler(core, live, ACTION, Float64Array));
    finalizer.register(this, handle, this);
  }

  #live() {
    if (!this.#handle) throw new ApiMisuseError(`${this.id}: the env was disposed`);
    return this.#handle;
  }

  #views() {
    if (this.#buffer !== this.#core.HEAPU8.buffer) {
      const h = this.#live();
      this.#observation = h.observationView();
      this.#action = h.actionView();
      this.#result = h.resultView();
      this.#buffer = this.#core.HEAPU8.buffer;
    }
  }

  #info() {
    return this.#readInfo(this.#result);
  }

  reset({ seed, options } = {}) {
    const s = seed === undefined ? '0' : seedText(this.#core, seed);
    check(this.#core, this.#live().reset(s, seed !== undefined, JSON.stringify(options ?? {})));
    this.#views();
    return { observation: this.#observation, info: this.#info() };
  }

  step(action) {
    const values = actionValues(action, this.actionSpace, `${this.id} action`);
    this.#views();
    this.#action.set(values);
    check(this.#core, this.#live().step());
    this.#views();
    const r = this.#result;
    return { observation: this.#observation, reward: r[0], terminated: r[1] === 1, truncated: r[2] === 1, info: this.#info() };
  }

  // Episode totals (memtier-v0: estimated, migration and total ms, all-DDR/all-HBM, gap closed).
  summary() {
    return JSON.parse(this.#live().summaryJson());
  }

  // Gymnasium's render(): what a front end draws after the last step, the env's frame as named
  // typed-array copies (memtier: histogram and resident per bin). render_mode is always this one.
  render() {
    const h = this.#live();
    return Object.fromEntries(JSON.parse(h.frameLayoutJson()).map(({ name }, i) => [name, h.frameView(i).slice()]));
  }

  // Gymnasium's close(): the same as dispose().
  close() {
    this.dispose();
  }

  dispose() {
    if (!this.#handle) return;
    finalizer.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
}

export class VectorEnv {
  #core;
  #handle;
  #buffer = null;
  #views = {};

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    const d = JSON.parse(handle.describeJson());
    this.id = d.id;
    this.size = handle.size();
    this.numEnvs = this.size;
    this.infoKeys = d.info_keys;
    const live = () => this.#live();
    // Gymnasium's vector spaces: batched over the envs, the single env's as single*.
    this.observationSpace = new Space({ ...d.observation_space, text: d.observation_space_text },
      coreSampler(core, live, OBSERVATION, Float32Array), this.size);
    this.actionSpace = new Space({ ...d.action_space, text: d.action_space_text }, coreSampler(core, live, ACTION, Float64Array), this.size);
    this.singleObservationSpace = this.observationSpace.single;
    this.singleActionSpace = this.actionSpace.single;
    finalizer.register(this, handle, this);
  }

  #live() {
    if (!this.#handle) throw new ApiMisuseError(`${this.id}: the vector env was disposed`);
    return this.#handle;
  }

  // The flat infos (size rows of infoKeys) as Gymnasium's vector info: one array per key, an
  // env's value at its index (views, valid until the next step).
  // Plain loops: Float64Array.from with a mapping function made this a third of a vector step.
  #columns(flat) {
    const n = this.infoKeys.length;
    const columns = {};
    for (let k = 0; k < n; k += 1) {
      const column = new Float64Array(this.size);
      for (let e = 0; e < this.size; e += 1) column[e] = flat[e * n + k];
      columns[this.infoKeys[k]] = column;
    }
    return columns;
  }

  #refresh() {
    this.#live();
    if (this.#buffer !== this.#core.HEAPU8.buffer) {
      const h = this.#handle;
      this.#views = {
        actions: h.actionsView(),
        observations: h.observationsView(),
        rewards: h.rewardsView(),
        terminated: h.terminatedView(),
        truncated: h.truncatedView(),
        infos: h.infosView(),
        finalObservations: h.finalObservationsView(),
      };
      this.#buffer = this.#core.HEAPU8.buffer;
    }
    return this.#views;
  }

  reset({ seed } = {}) {
    this.#refresh();
    const s = seed === undefined ? '0' : seedText(this.#core, seed);
    check(this.#core, this.#handle.reset(s, seed !== undefined));
    const v = this.#refresh();
    return { observations: v.observations, infos: this.#columns(v.infos), infoRows: v.infos };
  }

  // `actions`: size x action-size values, row per env (a member of actionSpace). One call into the
  // core for all envs. `infos`: one array per info key (Gymnasium's vector form); `infoRows`: the
  // same values flat, env after env.
  step(actions) {
    const values = actionValues(actions, this.actionSpace, 'vector step: actions');
    const v = this.#refresh();
    v.actions.set(values);
    check(this.#core, this.#handle.step());
    const { actions: _, infos, ...out } = this.#refresh();
    return { ...out, infos: this.#columns(infos), infoRows: infos };
  }

  close() {
    this.dispose();
  }

  dispose() {
    if (!this.#handle) return;
    finalizer.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
}

// The families with extras in the package, one row each: `sysgym.NAME` is an instance of the
// class (its tools, and a `warmUp` env that load() steps when the family has one).
const FAMILY_EXTRAS = { memtier: Memtier, tensorplace: Tensorplace, looptune: Looptune, inline: Inline };

export class Sysgym {
  #core;
  constructor(core) {
    this.#core = core;
    // Named bytes envs read their data from (memtier: {trace: 'app'} finds app.ddr.csv and
    // app.hbm.csv, or 'a.csv,b.csv', or a preprocessed 'app.bin').
    this.data = {
      add: (name, data) => check(core, core.addData(text(name, 'data.add: name'), bytes(data, 'data.add: data'))),
    };
    for (const [name, Extras] of Object.entries(FAMILY_EXTRAS)) this[name] = new Extras(core);
  }

  envIds() {
    return JSON.parse(this.#core.envIdsJson());
  }

  // Steps each family's warm-up env (its `warmUp`: {env, config, steps}) with random actions.
  warmUp() {
    for (const family of Object.keys(FAMILY_EXTRAS).map((name) => this[name])) {
      if (!family.warmUp) continue;
      const { env: id, config, steps } = family.warmUp;
      const env = this.make(id, config);
      try {
        const actions = Array.from({ length: 16 }, (_, i) => env.actionSpace.sample(i + 1));
        env.reset({ seed: 0 });
        for (let i = 0; i < steps; i += 1) {
          const r = env.step(actions[i % actions.length]);
          if (r.terminated || r.truncated) env.reset();
        }
      } finally {
        env.dispose();
      }
    }
  }

  // Every registered env: [{id, summary}] (`sysgym list --json`).
  envs() {
    return JSON.parse(this.#core.envListJson());
  }

  // A seed checked as the native tool checks --seed (the bin names its flag): its decimal text.
  checkSeed(seed, name = 'seed') {
    return seedText(this.#core, seed, name);
  }

  // An integer flag checked as the native tool checks it (range and message): its decimal text.
  checkInteger(value, name, min, max) {
    const out = this.#core.checkIntegerText(text(String(value), name), text(name, 'checkInteger: name'), min, max);
    if (out === '') throw lastError(this.#core);
    return out;
  }

  // {flag: [min, max]} of `sysgym train`'s numeric flags, as the native tool takes them.
  trainFlagRanges() {
    return JSON.parse(this.#core.trainFlagRangesJson());
  }

  // The registered id an env id or bare name stands for (UnknownNameError suggests the closest).
  resolveEnv(env) {
    const out = this.#core.resolveEnvId(text(env, 'resolveEnv: env'));
    if (out === '') throw lastError(this.#core);
    return out;
  }

  // The policies that run on `env` (default: the first registered env).
  policies(env = this.envIds()[0]) {
    return parsed(this.#core, this.#core.policiesJson(text(env, 'policies: env')));
  }

  // Every config key of `env`: name, type, default, unit, doc, min/max or choices, and whether a
  // learned policy fixes it (fixed_by_policy: its network's shape; policy_task: what it was
  // trained to achieve).
  configSchema(env) {
    return parsed(this.#core, this.#core.configSchemaJson(text(env, 'configSchema: env')));
  }

  // The keys of `env`'s step infos, in order (what env.infoKeys holds once an env is made).
  infoKeys(env) {
    return parsed(this.#core, this.#core.infoKeysJson(text(env, 'infoKeys: env')));
  }

  // Checks that a registered env keeps the env contract (as `sysgym check` does), made from its
  // example config with `config` (an object or JSON text) and `settings` (KEY=VALUE) over it: the
  // passed checks, one line each; an EnvCheckError names the first broken promise.
  checkEnv(id, { config = {}, settings = [], seed = 0 } = {}) {
    const out = this.#core.checkEnvJson(text(id, 'checkEnv: id'), typeof config === 'string' ? config : JSON.stringify(config),
      JSON.stringify(strings(settings, 'checkEnv: settings')), seedText(this.#core, seed, 'seed'));
    if (out === '') throw lastError(this.#core);
    return JSON.parse(out);
  }

  make(id, config = {}) {
    const handle = this.#core.EnvHandle.make(text(id, 'make: id'), JSON.stringify(config));
    if (!handle) throw lastError(this.#core);
    return new Env(this.#core, handle);
  }

  makeVector(id, config = {}, count = 1) {
    if (typeof count !== 'number') {
      throw new ApiMisuseError(`makeVector: count must be a number, got ${typeof count} ${quote(String(count))}`);
    }
    if (!Number.isInteger(count) || count < 1 || count > 4096) {
      throw new ConfigError(`makeVector: count ${String(count)} is not a whole number from 1 to 4096`);
    }
    const handle = this.#core.VectorHandle.make(text(id, 'makeVector: id'), JSON.stringify(config), count);
    if (!handle) throw lastError(this.#core);
    return new VectorEnv(this.#core, handle);
  }

  // One episode of a named policy on `env` (an id or bare name); with record, the episode JSON
  // `sysgym run --record` writes. A learned policy's env settings are its base config.
  runEpisode({ env, config = {}, policy, policyConfig = {}, seed = 0, record = false }) {
    return parsed(
      this.#core,
      this.#core.runEpisodeJson(text(env, 'runEpisode: env'), JSON.stringify(config), text(policy, 'runEpisode: policy'),
        JSON.stringify(policyConfig), seedText(this.#core, seed), flag(record, 'runEpisode: record')),
    );
  }

  // [report text, recorded episode text or ''] of `sysgym run ENV KEY=VALUE... --json [--record]`:
  // `settings` are the KEY=VALUE strings (--set first), typed by the env's schema as natively.
  runReport(env, configText, settings, policy, policyConfigText, seed, record, json = true) {
    const out = this.#core.runReportText(text(env, 'runReport: env'), text(configText, 'runReport: configText'),
      JSON.stringify(strings(settings, 'runReport: settings')), text(policy, 'runReport: policy'),
      text(policyConfigText, 'runReport: policyConfigText'), seedText(this.#core, seed), flag(record, 'runReport: record'),
      flag(json, 'runReport: json'));
    return parsed(this.#core, out);
  }

  // The exact text `sysgym describe [ENV] KEY=VALUE... [--json]` prints (env '': the first env).
  describeReport(env, configText, settings, json = true) {
    const out = this.#core.describeReportText(text(env, 'describeReport: env'), text(configText, 'describeReport: configText'),
      JSON.stringify(strings(settings, 'describeReport: settings')), flag(json, 'describeReport: json'));
    if (out === '') throw lastError(this.#core);
    return out;
  }

  // The exact text `sysgym compare ENV KEY=VALUE... --json` prints.
  compareReport(env, configText, settings, policies, seed, json = true) {
    const out = this.#core.compareReportText(text(env, 'compareReport: env'), text(configText, 'compareReport: configText'),
      JSON.stringify(strings(settings, 'compareReport: settings')), JSON.stringify(strings(policies, 'compareReport: policies')),
      seedText(this.#core, seed), flag(json, 'compareReport: json'));
    if (out === '') throw lastError(this.#core);
    return out;
  }

  // A DQN or PPO trainer on `env` (training/ Trainer): {env, config, settings, vary, envs, agent,
  // agentConfig, seed, curveEvery}, as `sysgym train` takes them.
  trainer(options) {
    return makeTrainer(this.#core, options);
  }

  // A trainer continued from a training state (Trainer.state(), or a native OUTPUT.state file).
  resumeTrainer(state, name = 'state') {
    return resumeTrainer(this.#core, state, name);
  }

  // Where the time of fn() goes (awaited): the core's operations, the JS <-> WebAssembly crossings
  // and the time in JS, as `sysgym profile` reports natively. {maxEvents} scopes and calls are
  // kept for profile.chromeTrace(); {partial: true} returns what ran when fn throws.
  profile(fn, options = {}) {
    return profile(this.#core, fn, options);
  }

  // A profile's report (with fields added, as the bin's unprofiled time) as `sysgym profile`'s table.
  profileText(report) {
    return reportText(this.#core, report);
  }

  // The exact text `sysgym eval [--json]` prints, for policy files [{path, text}].
  evalReport(request, json = true) {
    return evalReport(this.#core, request, json);
  }

  // An episode of `env` stepped one step at a time (the playground draws each): `policy` deciding,
  // recorded so that toJSON() gives the episode JSON `sysgym run --record` writes.
  episode({ env, config = {}, policy, policyConfig = {}, seed = 0 }) {
    const handle = this.#core.EpisodeHandle.run(text(env, 'episode: env'), JSON.stringify(config),
      text(policy, 'episode: policy'), JSON.stringify(policyConfig), seedText(this.#core, seed));
    if (!handle) throw lastError(this.#core);
    return new Episode(this.#core, handle);
  }

  // A recorded episode (JSON text or object) replayed one step at a time on the env it names; a
  // step whose reward differs from the recording throws.
  replay(episode) {
    const json = typeof episode === 'string' ? episode : JSON.stringify(episode);
    const handle = this.#core.EpisodeHandle.replay(json);
    if (!handle) throw lastError(this.#core);
    return new Episode(this.#core, handle);
  }

  replayEpisode(episode) {
    const json = typeof episode === 'string' ? episode : JSON.stringify(episode);
    return parsed(this.#core, this.#core.replayEpisodeJson(json));
  }
}

// Loads the WebAssembly core (embedded in this package: no fetch, works offline).
// V8 first runs WebAssembly through its baseline compiler and optimises a function only once it
// has run for a while: a fresh module stepped an env about 10x slower than native for its first
// 2,000 steps. load() therefore steps each family's small warm-up env (about 50 ms) so that the
// first real episode runs optimised code; `warmUp: false` skips it.
export async function load({ warmUp = true, ...moduleOptions } = {}) {
  const core = await createSysgymCore(moduleOptions);
  // Under Node, envs read files by path and the package's shipped traces by name, as natively.
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { hostFiles } = await import('./node_files.mjs');
    const files = hostFiles();
    core.useHostFiles(files, files.shippedPrefix);
  }
  const sysgym = new Sysgym(core);
  if (warmUp) sysgym.warmUp();
  return sysgym;
}
