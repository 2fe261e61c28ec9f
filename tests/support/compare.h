#pragma once
// Comparing two sequences of numbers in a test, with a message that says what went wrong.

#include <QString>

#include <cmath>
#include <cstddef>

namespace attnlab::testing {

/// The largest |a_i − b_i| (stored in *worst) and where, as "largest difference … at i (a vs b)".
template <typename A, typename B>
QString largestDifference(const A& a, const B& b, double* worst)
{
    *worst = 0;
    std::size_t where = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
        if (d > *worst) {
            *worst = d;
            where = i;
        }
    }
    if (a.size() == 0)
        return QStringLiteral("no values");
    return QStringLiteral("largest difference %1 at %2 (%3 vs %4)")
        .arg(*worst)
        .arg(where)
        .arg(static_cast<double>(a[where]))
        .arg(static_cast<double>(b[where]));
}

} // namespace attnlab::testing
