// How an env's observation and actions are made of like entities (memtier: address bins;
// tensors, loops or call sites next), so that an agent can score every entity with one shared
// network, which then holds on data with other entities, instead of guessing the layout.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sysgym {

struct EntityLayout {
  std::string entity;  // what one entity is, e.g. "bin"
  int count = 0;
  // The observation starts with `channels` blocks of `count` values (channel c of entity i at
  // c * count + i); the values after them are episode-wide scalars.
  int channels = 0;
  // The channel holding each entity's current choice (memtier: the resident fraction), which
  // "flip" actions toggle; the other channels describe the entity's activity. -1: none.
  int state_channel = -1;
  // Discrete actions, when the action space is Discrete: action 0 changes nothing, then one block
  // of `count` actions per verb (verb v on entity i is action 1 + v * count + i; memtier:
  // "promote", "demote"). A MultiBinary action space has one value per entity and no verbs.
  std::vector<std::string> verbs;

  nlohmann::json to_json() const {
    return {{"entity", entity},
            {"count", count},
            {"channels", channels},
            {"state_channel", state_channel},
            {"verbs", verbs}};
  }
};

}  // namespace sysgym
