// The sysgym error hierarchy. Every error a user can cause is one of these, with a message that
// names the file, line, key or value at fault and what was expected. The bindings map kind() to a
// JS Error subclass of the same name.
#pragma once

#include <stdexcept>
#include <string>

namespace sysgym {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  virtual const char* kind() const noexcept { return "Error"; }
};

// Name is a class name, which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define SYSGYM_DEFINE_ERROR(Name)                                \
  class Name : public Error {                                    \
   public:                                                       \
    using Error::Error;                                          \
    const char* kind() const noexcept override { return #Name; } \
  }
// NOLINTEND(bugprone-macro-parentheses)

// A configuration key is unknown, missing, of the wrong type or out of range.
SYSGYM_DEFINE_ERROR(ConfigError);
// A trace or preprocessed file is malformed (message names the file and line or block).
SYSGYM_DEFINE_ERROR(TraceFormatError);
// A name (env id, pattern, unit, mode ...) is not one of the registered ones.
SYSGYM_DEFINE_ERROR(UnknownNameError);
// The API was called out of order (step before reset, step after the episode ended ...).
SYSGYM_DEFINE_ERROR(ApiMisuseError);
// An action is not contained in the env's action space.
SYSGYM_DEFINE_ERROR(InvalidActionError);
// A file could not be opened, read or written (native shells only).
SYSGYM_DEFINE_ERROR(IoError);
// An env broke the env contract (check_env names the promise).
SYSGYM_DEFINE_ERROR(EnvCheckError);

#undef SYSGYM_DEFINE_ERROR

}  // namespace sysgym
