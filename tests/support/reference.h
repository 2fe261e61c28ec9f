#pragma once
// Reading the golden files written by scripts/gen_reference.py (PyTorch), shared by the
// engine's reference test and the command line's.

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::testing {

inline std::string referenceDir()
{
    return ATTNLAB_TEST_DATA "/mha";
}

inline nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    return nlohmann::json::parse(in);
}

inline std::vector<std::string> referenceCases()
{
    return readJson(referenceDir() + "/cases.json").get<std::vector<std::string>>();
}

/// A JSON value that is a number or one of the strings "-inf", "inf", "nan".
inline float jsonFloat(const nlohmann::json& v)
{
    if (v.is_number())
        return v.get<float>();
    const auto s = v.get<std::string>();
    if (s == "-inf")
        return -std::numeric_limits<float>::infinity();
    if (s == "inf")
        return std::numeric_limits<float>::infinity();
    return std::numeric_limits<float>::quiet_NaN();
}

inline Eigen::MatrixXf jsonMatrix(const nlohmann::json& rows)
{
    const auto r = static_cast<Eigen::Index>(rows.size());
    const auto c = r ? static_cast<Eigen::Index>(rows[0].size()) : 0;
    Eigen::MatrixXf m(r, c);
    for (Eigen::Index i = 0; i < r; ++i) {
        if (static_cast<Eigen::Index>(rows[i].size()) != c)
            throw std::runtime_error("ragged matrix in reference data");
        for (Eigen::Index j = 0; j < c; ++j)
            m(i, j) = jsonFloat(rows[i][j]);
    }
    return m;
}

struct Difference {
    float max = 0;       ///< largest |got - want| over finite cells
    Eigen::Index row = -1;
    Eigen::Index col = -1;
    std::string problem; ///< shape or non-finite mismatch, empty when none
};

/// Compares cell by cell: infinities must match exactly, NaN must not appear in `got`,
/// finite cells must agree within `tol` (returned is the largest difference and where).
inline Difference compare(const Eigen::MatrixXf& got, const Eigen::MatrixXf& want)
{
    Difference d;
    if (got.rows() != want.rows() || got.cols() != want.cols()) {
        std::ostringstream s;
        s << "shape " << got.rows() << "x" << got.cols() << " != " << want.rows() << "x" << want.cols();
        d.problem = s.str();
        return d;
    }
    for (Eigen::Index i = 0; i < got.rows(); ++i) {
        for (Eigen::Index j = 0; j < got.cols(); ++j) {
            const float g = got(i, j);
            const float w = want(i, j);
            if (std::isnan(g) || std::isfinite(g) != std::isfinite(w) || (std::isinf(w) && g != w)) {
                std::ostringstream s;
                s << "cell (" << i << ", " << j << "): got " << g << ", want " << w;
                d.problem = s.str();
                return d;
            }
            if (std::isfinite(w) && std::abs(g - w) > d.max) {
                d.max = std::abs(g - w);
                d.row = i;
                d.col = j;
            }
        }
    }
    return d;
}

} // namespace attnlab::testing
