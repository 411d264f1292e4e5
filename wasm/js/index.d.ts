// Types of the sysgym npm package (checked against the module by wasm/test/package.test.mjs; a
// typed example compiles under tsc --strict in wasm/test/types.test.mjs). envs.d.ts is generated
// from the registered envs' schemas at build time.
import type { EnvTypes } from './envs.js';

export type * from './envs.js';
export class SysgymError extends Error {}
export class ConfigError extends SysgymError {}
export class TraceFormatError extends SysgymError {}
export class UnknownNameError extends SysgymError {}
export class ApiMisuseError extends SysgymError {}
export class InvalidActionError extends SysgymError {}
export class IoError extends SysgymError {}
export class EnvCheckError extends SysgymError {}

export type Info = Record<string, number>;

/** Any integer from 0 to 2^64 - 1: a number up to 2^53 - 1, a BigInt, or a decimal string.
 * Anything else (-1, 1.5, NaN, 2^64, "abc") throws ConfigError, as `--seed` does natively. */
export type Seed = number | bigint | string;

/** A space as Gymnasium has them; a vector env's spaces are batched (`batch` > 0). */
export class Space {
  readonly type: 'Discrete' | 'MultiBinary' | 'MultiDiscrete' | 'Box' | 'Dict';
  /** Values in a flat member (a batched space: every env's, one after the other). */
  readonly flatSize: number;
  /** Discrete: [] (a scalar); MultiBinary, MultiDiscrete, Dict: [flat size]; Box: its shape;
   * batched: [batch, ...the single shape]. */
  readonly shape: number[];
  /** Discrete: how many values (start, start + 1, ...); MultiBinary: how many bits. */
  readonly n?: number;
  /** Discrete: the first value. */
  readonly start?: number;
  /** MultiDiscrete: values per element. */
  readonly nvec?: number[];
  /** Box: bounds per element (flat), null for an unbounded side. */
  readonly low?: (number | null)[];
  readonly high?: (number | null)[];
  readonly dtype?: 'float32';
  /** Dict: the named parts and where each starts in the flat member. */
  readonly children?: { name: string; offset: number; space: Record<string, unknown> }[];
  /** Envs in a batch (0: not batched). */
  readonly batch: number;
  /** The space of one env of the batch (itself when not batched). */
  readonly single: Space;
  contains(value: ArrayLike<number> | number): boolean;
  /** Seeds the space's own generator (run by the core: the same draws natively). */
  seed(seed: Seed): [Seed];
  /** The next member drawn (a copy); with `seed`, seeds first. Actions Float64Array,
   * observations Float32Array. */
  sample(seed?: Seed): Float64Array | Float32Array;
  toString(): string;
}

export interface ResetResult<I = Info> { observation: Float32Array; info: I; }
export interface StepResult<I = Info> {
  observation: Float32Array;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: I;
}

export interface EpisodeSummary {
  windows: number; estimated_ms: number; migration_ms: number; total_ms: number;
  ddr_ms: number; hbm_ms: number; gap_closed: number; bytes_moved: number;
  promoted_bytes: number; demoted_bytes: number; refused_bytes: number; redundant_requests: number;
}

/** How an env's episodes are compared (its describe hooks). */
export interface Comparing {
  /** The summary key that says how well an episode went ('' = the return). */
  readonly primaryMetric: string;
  /** The summary key a comparison ranks by, and its direction (memtier: total_ms, lower). */
  readonly ranking: { key: string; higherIsBetter: boolean };
  /** The summary keys a comparison shows, in order ([] = every key). */
  readonly reportColumns: string[];
}

/** An env; `C` its resolved config and `I` its step info (typed per env id through make()). */
export class Env<C = Record<string, unknown>, I = Info> implements Comparing {
  readonly id: string;
  readonly config: C;
  readonly facts: Record<string, unknown>;
  readonly infoKeys: string[];
  readonly primaryMetric: string;
  readonly ranking: { key: string; higherIsBetter: boolean };
  readonly reportColumns: string[];
  readonly observationLayout: string[];
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  /** Observation views stay valid until the next reset/step of this env. */
  reset(options?: { seed?: Seed; options?: Record<string, unknown> }): ResetResult<I>;
  step(action: ArrayLike<number> | number): StepResult<I>;
  summary(): EpisodeSummary;
  /** The env's frame after the last step: named typed-array copies (memtier: histogram, resident). */
  render(): Record<string, Float32Array | Float64Array | Uint32Array | Int32Array | Uint8Array>;
  /** The same as dispose() (Gymnasium's name). */
  close(): void;
  dispose(): void;
}

export interface VectorStep {
  observations: Float32Array; rewards: Float64Array; terminated: Uint8Array; truncated: Uint8Array;
  /** Gymnasium's vector info: one array per info key, an env's value at its index. */
  infos: Record<string, Float64Array>;
  /** The same values flat: size rows of infoKeys. */
  infoRows: Float64Array;
  finalObservations: Float32Array;
}

export class VectorEnv {
  readonly id: string;
  readonly size: number;
  /** Gymnasium's name for size. */
  readonly numEnvs: number;
  readonly infoKeys: string[];
  /** Batched over the envs (shape [size, ...]); single*: one env's. */
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  reset(options?: { seed?: Seed }): { observations: Float32Array; infos: Record<string, Float64Array>; infoRows: Float64Array };
  step(actions: ArrayLike<number>): VectorStep;
  close(): void;
  dispose(): void;
}

export interface PolicyInfo {
  name: string;
  oracle: boolean;
  /** true for "learned": it runs only with a policy file (from `sysgym train`) as its parameters. */
  needs_parameters: boolean;
  summary: string;
}
export interface Estimate {
  estimated_ms: number; ddr_ms: number; hbm_ms: number; windows: number; empty_windows: number;
  samples: number; samples_in_hbm: number;
}

export interface EpisodeStep {
  reward: number; done: boolean; info: Info;
  /** The env's frame arrays after the step, copied (memtier: `histogram`, samples per bin in the
   * window just played, Uint32Array; `resident`, each bin's fraction in HBM, Float32Array). */
  frame: Record<string, Uint32Array | Float32Array | Float64Array>;
}

export class Episode implements Comparing {
  readonly env: string;
  readonly config: Record<string, unknown>;
  readonly facts: Record<string, unknown>;
  readonly infoKeys: string[];
  readonly primaryMetric: string;
  readonly ranking: { key: string; higherIsBetter: boolean };
  readonly reportColumns: string[];
  readonly frameLayout: { name: string; dtype: 'float32' | 'float64' | 'uint32'; size: number }[];
  /** What reading the frames needs (memtier: bins {lo, hi, bytes}, start, windows). */
  readonly frameContext: Record<string, unknown>;
  readonly policy: string;
  readonly policyParameters: Record<string, unknown> | null;
  readonly isReplay: boolean;
  readonly done: boolean;
  step(): EpisodeStep;
  summary(): Record<string, number>;
  toJSON(): Record<string, unknown>;
  dispose(): void;
}

/** memtier's extras (`sysgym.memtier`). */
export class Memtier {
  /** The env load() warms up: its id, config and number of steps. */
  readonly warmUp: { env: string; config: Record<string, unknown>; steps: number };
  addTraces(name: string, ddr: string | ArrayBuffer | Uint8Array, hbm: string | ArrayBuffer | Uint8Array): void;
  addPrepared(name: string, data: ArrayBuffer | Uint8Array): void;
  estimate(name: string, hbmRanges?: string | string[], options?: { hbmFactor?: number }): Estimate;
  /** The exact text `sysgym memtier estimate [--json]` prints (JSON unless `json: false`). */
  estimateReport(name: string, windows: Record<string, unknown>, hbmRanges: string | string[], hbmFactor?: number | string,
                 measured?: string | ArrayBuffer | Uint8Array | null, options?: { json?: boolean; measuredName?: string }): string;
  /** The exact text `sysgym memtier inspect FILE [--json]` prints for a file's bytes (JSON unless `json: false`). */
  inspectReport(name: string, data: string | ArrayBuffer | Uint8Array,
                options?: { pageSize?: number | string; intervalDistance?: number | string; cpuCyclesPerMs?: number | string; json?: boolean }): string;
  /** What each trace offers a learner, as `sysgym memtier traces --json` (default: the shipped traces). */
  traces(options?: { names?: string | string[]; hbmCapacity?: string | number }): TraceHeadroom[];
}

export interface TraceHeadroom {
  trace: string; windows: number; ddr_ms: number; hbm_ms: number;
  /** (all DDR - all HBM) / all DDR: the most any placement can win. */
  gap_share: number;
  /** The share of the gap the static oracle closes at hbm_capacity. */
  static_oracle_gap_closed: number;
  hbm_capacity: string | number;
}

export interface ConfigKeyInfo {
  name: string; type: string; default: unknown; unit: string; doc: string; required: boolean;
  fixed_by_policy: boolean; policy_task: boolean; accepts: string; min?: number; max?: number; choices?: string[];
  default_text?: string;
}

/** The config type of env id `Id` (envs.d.ts), or a plain record for an id not known here. */
export type ConfigOf<Id extends string> = Id extends keyof EnvTypes ? EnvTypes[Id]['config'] : Record<string, unknown>;
/** The env type `make(Id)` returns. */
export type EnvOf<Id extends string> = Id extends keyof EnvTypes ? Env<EnvTypes[Id]['resolved'], EnvTypes[Id]['info']> : Env;

/** A learning-curve point: over the last 20 finished episodes. */
export interface CurvePoint {
  env_steps: number; episodes: number; mean_return: number;
  /** The env's primary metric (memtier: gap_closed), 0 when it declares none. */
  mean_metric: number;
  /** DQN: the last TD loss; PPO: the last value loss. */
  loss: number;
}

/** The core's DQN / PPO trainer, stepped in slices (one thread: slower than the native tool,
 * the same results). */
export class Trainer {
  readonly agent: string;
  readonly envSteps: number;
  /** Trains to the next curve point or `target` env steps: the point, or null when the target came first. */
  advance(target: number | bigint | string): CurvePoint | null;
  /** Trains until `steps` env steps, calling onPoint at each curve point; the last point. */
  train(steps: number, onPoint?: (point: CurvePoint) => void): CurvePoint;
  progressText(totalSteps: number, stepsPerSecond: number): string;
  summaryText(newSteps: number, seconds: number, output: string, curve?: string): string;
  /** The policy file's JSON text (`--policy-config FILE`, `sysgym eval --policy FILE`). */
  policy(seconds?: number): string;
  /** The policy so far (OUTPUT.checkpoint). */
  checkpoint(): string;
  /** The whole training state, CBOR (OUTPUT.state; `sysgym train --resume`). */
  state(): Uint8Array;
  /** The learning curve as CSV. */
  curveCsv(): string;
  dispose(): void;
}

/** One operation's row of a profile (times corrected for the profiler's own cost). */
export interface ProfileOp {
  op: string;
  category: 'simulation' | 'inference' | 'learning' | 'data' | 'framework' | 'js-wasm boundary';
  count: number; inclusive_ms: number; self_ms: number; mean_us: number;
  /** Self time over the corrected wall time. */
  share: number;
  measured_inclusive_ms: number; measured_self_ms: number;
}

/** `sysgym profile --json`'s report, with the calls into the module (`crossings`). */
export interface ProfileReport {
  wall_ms: number; corrected_wall_ms: number;
  /** Time outside every operation: in JS, outside the module. */
  unattributed_ms: number;
  scopes: number;
  overhead_per_scope_ns: { inside: number; outside: number };
  ops: ProfileOp[];
  categories_ms: Record<string, number>;
  sum_check: { self_plus_unattributed_ms: number; corrected_wall_ms: number };
  crossings: {
    count: number;
    calls: { name: string; count: number; ms: number }[];
    overhead_per_crossing_ns: { inside: number; outside: number };
  };
  partial: boolean;
}

/** What sysgym.profile(fn) found. */
export class Profile<T = unknown> {
  readonly report: ProfileReport;
  /** The table `sysgym profile` prints. */
  readonly text: string;
  /** fn's result. */
  readonly result: T;
  /** With {partial: true}, the error fn threw. */
  readonly error?: unknown;
  /** Chrome trace-event JSON: the core's scopes and the calls into the module (Perfetto opens it). */
  chromeTrace(): { traceEvents: object[]; displayTimeUnit: string; otherData: object };
}

export interface TrainerOptions {
  env: string;
  /** Config keys over every env's (an object or JSON text), then `settings` (KEY=VALUE). */
  config?: Record<string, unknown> | string; settings?: string[];
  /** --vary texts: KEY=V1,V2,... (one env config per combination). */
  vary?: string[];
  /** Envs stepped together (default: one per --vary combination), round-robin over the grid. */
  envs?: number | string;
  agent?: 'dqn' | 'ppo'; agentConfig?: Record<string, unknown> | string;
  seed?: Seed; curveEvery?: number | string;
}

export interface EvalRequest {
  /** The policy files: a name for the rows (learned:PATH) and the file's text. */
  policies: { path: string; text: string }[];
  env?: string; config?: Record<string, unknown> | string; settings?: string[]; vary?: string[];
  baselines?: string[]; seed?: Seed;
  /** Episodes per row (--seeds: seed, seed + 1, ...), pooled: each number's mean, the primary
   * metric's METRIC_min and METRIC_max, and `runs`. Default 1. */
  seeds?: number | string;
}

/** An ILP solver: CPLEX LP text in, named values out (the default is HiGHS from npm `highs`). */
export type IlpSolver = (lp: string, options: { time_limit: number; gap: number; start: Record<string, number> }) => {
  status: string; has_solution: boolean; objective?: number; bound?: number; seconds?: number;
  values?: Record<string, number>;
};

export interface TensorplaceRequest {
  model?: string; batch?: number;
  /** A graph's JSON text (sysgym tensorplace graph -o), instead of a zoo model. */
  graph?: string;
  /** "50%", a slow:fast ratio "1:4", or a size "8GiB". */
  fast_memory?: string | number;
  platform?: string | Record<string, unknown>;
  /** Seconds for the whole call (ilp: default 60; sweep: default none), as --time-limit natively. */
  time_limit?: number;
  /** sweep: seconds for each solve at most (default 60), as --solve-time-limit. */
  solve_time_limit?: number;
  gap?: number;
  ratios?: string[]; optimizers?: string[];
}

export interface LooptuneMeasurement {
  kernel: string;
  micro_kernel: string;
  model_gflops: number;
  /** The fastest run's GFLOPS. */
  gflops: number;
  median_gflops: number;
  runs: number;
}

export class Looptune {
  /** A loop nest measured in this JS engine: {kernel, loops (the untuned nest when left out), annotations, min_seconds}. */
  measure(request?: { kernel?: string; loops?: Array<Record<string, unknown>>; annotations?: boolean; min_seconds?: number }): LooptuneMeasurement;
  /** The executor's peak GFLOPS in this engine (the nest measured rewards are scaled by). */
  peak(): number;
  /** The executor's benchmark nests (each kernel untuned and as two searches tune it), measured here. */
  executorBench(options?: { minSeconds?: number }): Array<LooptuneMeasurement & { found_by: string; loops: Array<Record<string, unknown>> }>;
}

export interface InlineCallGraph {
  functions: { name: string; local: boolean; text_bytes: number; calls: number; callers: number }[];
  sites: { id: string; caller: number; callee: number; calls: number; copies: number; line: number; o2: boolean; oz: boolean }[];
  /** order[k]: the site (index into sites) inline-v0 decides at step k. */
  order: number[];
}

export interface InlineEstimate {
  program: string; sites: number; inlined: number;
  text_bytes: number; instructions: number; text_vs_Oz: number; instructions_vs_O2: number;
  /** 1 - cost against the env's baseline (> 0 beats it). */
  score: number;
  graph?: InlineCallGraph;
}

export class Inline {
  /** The cost model's figures for a decision set: a set's name, site ids to inline, 0/1 per site, or a decisions file's object. */
  estimate(request: { config?: Record<string, unknown>; decisions?: string | string[] | Array<0 | 1 | boolean> | Record<string, unknown>; graph?: boolean }): InlineEstimate;
  /** The program's call graph, as the browser draws it. */
  callGraph(config?: Record<string, unknown>): InlineCallGraph;
}

export class Tensorplace {
  /** The HiGHS loader to use (the `highs` package's default export), instead of importing `highs`. */
  useHighs(loader: (options?: Record<string, unknown>) => Promise<unknown>): void;
  zoo(batch?: number, options?: { json?: boolean }): Record<string, unknown>[] | string;
  graph(request: TensorplaceRequest, options?: { json?: boolean; withGraph?: boolean }): { summary: Record<string, unknown> | string; graph?: string };
  ilp(request: TensorplaceRequest, options?: { json?: boolean; solver?: IlpSolver }): Promise<Record<string, unknown> | string>;
  sweep(request: TensorplaceRequest, options?: { json?: boolean; solver?: IlpSolver }): Promise<Record<string, unknown> | string>;
}

export class Sysgym {
  envIds(): string[];
  readonly tensorplace: Tensorplace;
  readonly looptune: Looptune;
  readonly inline: Inline;
  /** A DQN or PPO trainer, as `sysgym train` makes it. */
  trainer(options: TrainerOptions): Trainer;
  /** A trainer continued from Trainer.state() or a native OUTPUT.state file's bytes. */
  resumeTrainer(state: Uint8Array, name?: string): Trainer;
  /** Where the time of fn() goes: the core's operations, the JS <-> WebAssembly crossings and the
   * time in JS; `maxEvents` scopes and calls kept for the timeline; `partial` returns what ran
   * when fn throws. */
  profile<T>(fn: () => T | Promise<T>, options?: { maxEvents?: number; partial?: boolean }): Promise<Profile<Awaited<T>>>;
  /** A profile's report as the table `sysgym profile` prints. */
  profileText(report: ProfileReport): string;
  /** The exact text `sysgym eval [--json]` prints. */
  evalReport(request: EvalRequest, json?: boolean): string;
  /** Every registered env's id and one-line summary, as `sysgym list --json`. */
  envs(): { id: string; summary: string }[];
  /** The policies that run on `env` (default: the first registered env). */
  policies(env?: string): PolicyInfo[];
  /** Every config key of `env` as `sysgym describe --json` lists it. */
  configSchema(env: string): ConfigKeyInfo[];
  /** check_env over a registered env: the passed checks; throws EnvCheckError naming a broken promise. */
  checkEnv(id: string, options?: { config?: object | string; settings?: string[]; seed?: number | bigint | string }): string[];
  /** The keys of `env`'s step infos, in order. */
  infoKeys(env: string): string[];
  /** An env by id: a registered id's config and info are typed from its schema (envs.d.ts), any
   * other string gets untyped ones. */
  make<Id extends string>(id: Id, config?: ConfigOf<Id>): EnvOf<Id>;
  makeVector<Id extends string>(id: Id, config?: ConfigOf<Id>, count?: number): VectorEnv;
  /** Named bytes envs read their data from (memtier: trace names `PREFIX`, `DDR,HBM`, `PAIR`). */
  readonly data: { add(name: string, data: string | ArrayBuffer | Uint8Array): void };
  readonly memtier: Memtier;
  runEpisode(args: {
    env: string; config?: Record<string, unknown>; policy: string; policyConfig?: Record<string, unknown>;
    seed?: Seed; record?: boolean;
  }): Record<string, unknown> & {
    summary: EpisodeSummary; observation_hash: string; return: number;
    /** Unrecorded episodes: the return after each step, in place of the steps. */
    returns?: number[];
  };
  replayEpisode(episode: string | Record<string, unknown>): EpisodeSummary;
  episode(args: { env: string; config?: Record<string, unknown>; policy: string; policyConfig?: Record<string, unknown>; seed?: Seed }): Episode;
  replay(episode: string | Record<string, unknown>): Episode;
  /** [report text, recorded episode text or ''] as `sysgym run ENV KEY=VALUE... --json [--record]`;
   * `settings`: KEY=VALUE strings (--set first), typed by the env's schema. */
  runReport(env: string, configText: string, settings: string[], policy: string, policyConfigText: string,
            seed: Seed, record: boolean, json?: boolean): [string, string];
  /** The exact text `sysgym describe [ENV] KEY=VALUE... [--json]` prints ('' for ENV: the first env). */
  describeReport(env: string, configText: string, settings: string[], json?: boolean): string;
  /** The exact text `sysgym compare ENV KEY=VALUE... --json` prints. */
  compareReport(env: string, configText: string, settings: string[], policies: string[], seed: Seed, json?: boolean): string;
  /** An integer flag's decimal text, checked against [min, max] as the native tool checks it. */
  checkInteger(value: number | bigint | string, name: string, min: number, max: number): string;
  /** {flag: [min, max]} of `sysgym train`'s numeric flags (--steps, --envs, ...), as natively. */
  trainFlagRanges(): Record<string, [number, number]>;
  /** The registered id an env id or bare name stands for. */
  resolveEnv(env: string): string;
  /** The seed's decimal text, checked as the native tool checks --seed; `name` names it in errors. */
  checkSeed(seed: Seed, name?: string): string;
  /** Steps each family's small warm-up env, as load() does unless told not to. */
  warmUp(): void;
}

/**
 * Loads the module. Unless `warmUp` is false it first steps a small env of each family (about
 * 50 ms), so that the first episode runs optimised WebAssembly; other options go to Emscripten.
 */
export function load(options?: { warmUp?: boolean } & Record<string, unknown>): Promise<Sysgym>;
