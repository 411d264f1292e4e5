// The web's registry of env views: one line per family (the family name is the env id's stem,
// memtier for memtier-v0). An env without a line gets the generic view, which shows what the
// env contract alone tells: config fields, rewards, return and frame arrays.
//
// A view is an object with: title, intro, dropHint, stepName; length(meta) and firstStep(meta)
// (the episode's steps and the first step's number, from its frame context; null/0 when
// unknown); form(slots, schema, services) for the playground's fields (see generic/view.js for
// the methods the page calls); describeRun(meta, policy, data); figures(dl) -> update(run,
// cursor); charts(container, {client}) -> [{update(run, cursor)}] (client: the worker's, for a
// view's own requests such as family extras); label(key) and format(key) for
// summary keys; caption(config); player {chart, figures, chartLabel, request(attrs, services)}.
// Optional: defaultPolicy (the policy the first screen starts on: pick one where something
// visibly happens on the form's default data) and comparisonReference (the policy whose return
// the comparison's curves are drawn relative to).
import { genericView } from './generic/view.js';
import { inlineView } from './inline/view.js';
import { looptuneView } from './looptune/view.js';
import { memtierView } from './memtier/view.js';
import { tensorplaceView } from './tensorplace/view.js';

const VIEWS = {
  inline: inlineView,
  looptune: looptuneView,
  memtier: memtierView,
  tensorplace: tensorplaceView,
};

// The view of env `id` (`generic` asks for the generic view of any env).
export function viewFor(id, { generic = false } = {}) {
  const family = String(id).replace(/-v\d+$/, '');
  return (!generic && VIEWS[family]) || genericView;
}
