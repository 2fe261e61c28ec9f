#pragma once
// The message of the std::invalid_argument a call throws, for tests of refusals.

#include <QString>

#include <stdexcept>

namespace attnlab::testing {

/// Calls f, which should throw std::invalid_argument; returns its message (empty when it did not throw).
template <typename F>
QString invalidArgumentMessage(F f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// Calls f, which should throw an E; returns its message (empty when it threw nothing).
template <typename E, typename F>
QString errorMessage(F f)
{
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace attnlab::testing
