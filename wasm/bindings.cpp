// Embind declarations of the generic handles; handles.cpp adapts core, js/index.mjs turns this
// into JS idioms. A family's extras bind themselves in wasm/families/ (one file each).
#include <emscripten/bind.h>

#include "episode_handle.hpp"
#include "handles.hpp"
#include "runtime.hpp"
#include "training_handles.hpp"

using namespace emscripten;
using namespace sysgym::wasm;

EMSCRIPTEN_BINDINGS(sysgym) {
  function("lastErrorKind", &last_error_kind);
  function("lastErrorMessage", &last_error_message);
  function("checkSeedText", &check_seed_text);
  function("checkIntegerText", &check_integer_text);
  function("resolveEnvId", &resolve_env_id);
  function("addData", &add_data);
  function("envIdsJson", &env_ids_json);
  function("policiesJson", &policies_json);
  function("configSchemaJson", &config_schema_json);
  function("infoKeysJson", &info_keys_json);
  function("envListJson", &env_list_json);
  function("checkEnvJson", &check_env_json);
  function("useHostFiles", &use_host_files);
  function("runEpisodeJson", &run_episode_json);
  function("replayEpisodeJson", &replay_episode_json);
  function("runReportText", &run_report_text);
  function("compareReportText", &compare_report_text);
  function("describeReportText", &describe_report_text);
  function("evalReportText", &eval_report_text);
  function("trainFlagRangesJson", &train_flag_ranges_json);

  class_<EnvHandle>("EnvHandle")
      .class_function("make", &EnvHandle::make, allow_raw_pointers())
      .function("reset", &EnvHandle::reset)
      .function("step", &EnvHandle::step)
      .function("containsAction", &EnvHandle::contains_action)
      .function("seedSpace", &EnvHandle::seed_space)
      .function("sampleSpace", &EnvHandle::sample_space)
      .function("sampleView", &EnvHandle::sample_view)
      .function("observationView", &EnvHandle::observation_view)
      .function("actionView", &EnvHandle::action_view)
      .function("resultView", &EnvHandle::result_view)
      .function("describeJson", &EnvHandle::describe_json)
      .function("summaryJson", &EnvHandle::summary_json)
      .function("frameLayoutJson", &EnvHandle::frame_layout_json)
      .function("frameView", &EnvHandle::frame_view);

  class_<VectorHandle>("VectorHandle")
      .class_function("make", &VectorHandle::make, allow_raw_pointers())
      .function("reset", &VectorHandle::reset)
      .function("step", &VectorHandle::step)
      .function("size", &VectorHandle::size)
      .function("actionsView", &VectorHandle::actions_view)
      .function("observationsView", &VectorHandle::observations_view)
      .function("rewardsView", &VectorHandle::rewards_view)
      .function("terminatedView", &VectorHandle::terminated_view)
      .function("truncatedView", &VectorHandle::truncated_view)
      .function("infosView", &VectorHandle::infos_view)
      .function("finalObservationsView", &VectorHandle::final_observations_view)
      .function("describeJson", &VectorHandle::describe_json)
      .function("seedSpace", &VectorHandle::seed_space)
      .function("sampleSpace", &VectorHandle::sample_space)
      .function("sampleView", &VectorHandle::sample_view);

  class_<EpisodeHandle>("EpisodeHandle")
      .class_function("run", &EpisodeHandle::run, allow_raw_pointers())
      .class_function("replay", &EpisodeHandle::replay, allow_raw_pointers())
      .function("done", &EpisodeHandle::done)
      .function("step", &EpisodeHandle::step)
      .function("frameView", &EpisodeHandle::frame_view)
      .function("resultView", &EpisodeHandle::result_view)
      .function("describeJson", &EpisodeHandle::describe_json)
      .function("summaryJson", &EpisodeHandle::summary_json)
      .function("recordJson", &EpisodeHandle::record_json);

  class_<TrainerHandle>("TrainerHandle")
      .class_function("make", &TrainerHandle::make, allow_raw_pointers())
      .class_function("resume", &TrainerHandle::resume, allow_raw_pointers())
      .function("advance", &TrainerHandle::advance)
      .function("envSteps", &TrainerHandle::env_steps)
      .function("agent", &TrainerHandle::agent)
      .function("pointJson", &TrainerHandle::point_json)
      .function("progressText", &TrainerHandle::progress_text)
      .function("summaryText", &TrainerHandle::summary_text)
      .function("policyText", &TrainerHandle::policy_text)
      .function("checkpointText", &TrainerHandle::checkpoint_text)
      .function("stateView", &TrainerHandle::state_view)
      .function("curveCsv", &TrainerHandle::curve_csv);
}
