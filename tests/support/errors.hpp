// message_of<E>(f): the message of the E that f throws, so tests pin exact error messages in
// one line. Records a test failure when f throws nothing.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace sysgym::testing {

template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception, none was thrown";
  return "";
}

}  // namespace sysgym::testing
