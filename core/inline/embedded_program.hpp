// The shipped program "kernels" compiled into the core (see embedded_program.cpp.in).
#pragma once

#include <string_view>

namespace sysgym::inlining {

std::string_view embedded_kernels_program();

}  // namespace sysgym::inlining
