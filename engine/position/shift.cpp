// The length experiment: one (query, key) pair moved along the input under each position scheme.

#include "position/shift.h"

#include "position/scheme.h"

#include <cmath>

namespace attnlab {

std::vector<std::vector<double>> shiftScores(PositionalEncoding scheme, const ShiftPair& pair, int n)
{
    const auto d = static_cast<int>(pair.tokenQ.size());
    const int heads = pair.heads;
    const int dK = d / heads;
    const int positions = n - pair.offset;
    std::vector<std::vector<double>> scores(heads, std::vector<double>(std::max(positions, 0)));
    if (positions <= 0 || dK < 1)
        return scores;
    const Eigen::MatrixXf wQ = pair.weights.inProjWeight.topRows(d);
    const Eigen::MatrixXf wK = pair.weights.inProjWeight.middleRows(d, d);
    const Eigen::RowVectorXf bQ = pair.weights.inProjBias.head(d).transpose();
    const Eigen::RowVectorXf bK = pair.weights.inProjBias.segment(d, d).transpose();
    const bool absolute = scheme == PositionalEncoding::Sinusoidal || scheme == PositionalEncoding::Learned;
    // Every query row and key row: the token at its position (plus P_pos for an absolute scheme).
    Eigen::MatrixXf xq = pair.tokenQ.replicate(positions, 1);
    Eigen::MatrixXf xk = pair.tokenK.replicate(positions, 1);
    if (absolute) {
        const Eigen::MatrixXf p = positionScheme(scheme).table(n, d, pair.seed);
        xq += p.topRows(positions);
        xk += p.middleRows(pair.offset, positions);
    }
    const Eigen::MatrixXf q = (xq * wQ.transpose()).rowwise() + bQ;
    const Eigen::MatrixXf k = (xk * wK.transpose()).rowwise() + bK;
    const double scale = 1.0 / std::sqrt(static_cast<double>(dK));
    const std::vector<double> slopes = alibiSlopes(heads);
    const RelativeTables tables = pair.relative ? *pair.relative : relativeTables(pair.options.maxDistance, dK, pair.seed);
    for (int h = 0; h < heads; ++h) {
        Eigen::MatrixXf qh = q.middleCols(h * dK, dK), kh = k.middleCols(h * dK, dK);
        if (scheme == PositionalEncoding::Rope) {
            const Eigen::MatrixXf angles = ropeAngles(n, dK, pair.options.ropeBase);
            qh = ropeRotate(qh, angles.topRows(positions));
            kh = ropeRotate(kh, angles.middleRows(pair.offset, positions));
        }
        for (int p = 0; p < positions; ++p) {
            double s = 0;
            for (int c = 0; c < dK; ++c)
                s += static_cast<double>(qh(p, c)) * kh(p, c);
            if (scheme == PositionalEncoding::Relative) {
                const int row = relativeRow(0, pair.offset, tables.maxDistance);
                for (int c = 0; c < dK; ++c)
                    s += static_cast<double>(qh(p, c)) * tables.keys(row, c);
            }
            s *= scale;
            if (scheme == PositionalEncoding::Alibi)
                s -= slopes[static_cast<std::size_t>(h)] * pair.offset;
            scores[static_cast<std::size_t>(h)][static_cast<std::size_t>(p)] = s;
        }
    }
    return scores;
}

} // namespace attnlab
