// No positions at all: P = 0, so self-attention only permutes its output when the tokens are
// permuted (lesson 7).

#include "position/scheme.h"

namespace attnlab {

Eigen::MatrixXf noPositions(int n, int dModel, std::uint64_t /*seed*/)
{
    return Eigen::MatrixXf::Zero(n, dModel);
}

} // namespace attnlab
