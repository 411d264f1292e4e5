// sysgym.trainer / resumeTrainer / evalReport: training from JS in slices, as the bin does.
import assert from 'node:assert/strict';
import test from 'node:test';

import { ApiMisuseError, ConfigError, UnknownNameError, load } from './helpers.mjs';

const sysgym = await load();
const options = { env: 'memtier', config: { trace: 'xz', hbm_capacity: '10%', bins: 8 }, agent: 'ppo', seed: 1, curveEvery: 256 };

test('a trainer advances point by point, and train() reaches the target with the same curve', () => {
  const stepped = sysgym.trainer(options);
  const points = [];
  while (stepped.envSteps < 1024) {
    const point = stepped.advance(1024);
    if (point) points.push(point);
  }
  assert.deepEqual(points.map((p) => p.env_steps), [256, 512, 768, 1024]);
  const whole = sysgym.trainer(options);
  const seen = [];
  const last = whole.train(1024, (p) => seen.push(p));
  assert.deepEqual(seen, points, 'slices do not change the run');
  assert.deepEqual(last, points.at(-1));
  assert.equal(whole.curveCsv(), stepped.curveCsv());
  assert.match(whole.curveCsv(), /^env_steps,episodes,mean_return,mean_gap_closed,loss\n256,/);
  const policy = JSON.parse(whole.policy(1.5));
  assert.equal(policy.agent, 'ppo');
  assert.equal(policy.training.seconds, 1.5);
  // The policy acts in the generic API like any policy.
  const { summary } = sysgym.runEpisode({ env: 'memtier', config: { trace: 'xz' }, policy: 'learned', policyConfig: policy });
  assert.ok(Number.isFinite(summary.total_ms));
  stepped.dispose();
  whole.dispose();
  assert.throws(() => whole.advance(2048), ApiMisuseError);
});

test('a state resumes where it stopped, twice the same', () => {
  const first = sysgym.trainer(options);
  first.train(512);
  const state = first.state();
  assert.ok(state instanceof Uint8Array && state.length > 1000);
  const curves = [0, 1].map(() => {
    const resumed = sysgym.resumeTrainer(state, 'run.state');
    assert.equal(resumed.envSteps, 512);
    resumed.train(1024);
    const csv = resumed.curveCsv();
    resumed.dispose();
    return csv;
  });
  assert.equal(curves[0], curves[1]);
  assert.throws(() => sysgym.resumeTrainer(new Uint8Array([1, 2, 3]), 'junk.state'),
    (e) => e instanceof ConfigError && /^--resume junk\.state: not a training state/.test(e.message));
  first.dispose();
});

test('bad trainer options are named errors', () => {
  assert.throws(() => sysgym.trainer({ ...options, env: 'memtire' }), UnknownNameError);
  assert.throws(() => sysgym.trainer({ ...options, agent: 'dqn', config: { ...options.config, action_mode: 'bins' } }), /dqn needs a Discrete action space/);
  assert.throws(() => sysgym.trainer({ ...options, envs: 0 }), /--envs: '0' is not a whole number from 1 to 4096/);
  assert.throws(() => sysgym.trainer({ ...options, config: [] }), ApiMisuseError);
  assert.throws(() => sysgym.trainer({ ...options, vary: ['bins=1,nope'] }), ConfigError);
  const t = sysgym.trainer(options);
  assert.throws(() => t.advance(0), /--steps: '0' is not a whole number/);
  t.dispose();
});

test('evalReport ranks a trained policy among the baselines', () => {
  const t = sysgym.trainer(options);
  t.train(256);
  const tables = JSON.parse(sysgym.evalReport({ policies: [{ path: 'mine', text: t.policy() }], baselines: ['all-ddr', 'static-oracle'] }));
  t.dispose();
  assert.equal(tables.length, 1);
  assert.deepEqual(tables[0].rows.map((r) => r.policy).sort(), ['all-ddr', 'learned:mine', 'static-oracle']);
  assert.throws(() => sysgym.evalReport({ policies: [] }), ApiMisuseError);
  assert.throws(() => sysgym.evalReport({ policies: [{ path: 'p', text: '{}' }] }), (e) => e instanceof ConfigError && /^p: /.test(e.message));
});
