#pragma once
// Reading the goldens of the independent generators (scripts/make_*_goldens.py) and comparing
// the engine's stages with them, shared by the attention kinds' and the position schemes' tests.

#include "core/trace.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::testing {

/// Golden matrices: null marks a cell the kind does not define (masked), read as NaN.
inline Eigen::MatrixXf matrix(const nlohmann::json& rows)
{
    const auto r = static_cast<Eigen::Index>(rows.size());
    const auto c = r ? static_cast<Eigen::Index>(rows[0].size()) : 0;
    Eigen::MatrixXf m(r, c);
    for (Eigen::Index i = 0; i < r; ++i) {
        for (Eigen::Index j = 0; j < c; ++j) {
            const auto& v = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
            m(i, j) = v.is_null() ? std::numeric_limits<float>::quiet_NaN() : v.get<float>();
        }
    }
    return m;
}

inline std::vector<Eigen::MatrixXf> perHead(const nlohmann::json& heads)
{
    std::vector<Eigen::MatrixXf> out;
    for (const auto& h : heads)
        out.push_back(matrix(h));
    return out;
}

inline Labels labels(Eigen::Index n, const char* prefix)
{
    auto v = std::make_shared<std::vector<std::string>>();
    for (Eigen::Index i = 0; i < n; ++i)
        v->push_back(prefix + std::to_string(i));
    return v;
}

inline const Stage* findStage(const StageList& stages, const std::string& id, std::optional<int> head)
{
    for (const Stage& s : stages) {
        if (s.id == id && s.head == head)
            return &s;
    }
    return nullptr;
}

/// |got − want| ≤ 1e-4 · max|want| on every cell the golden defines; NaN (null) cells are skipped.
inline void expectClose(const Eigen::MatrixXf& got, const Eigen::MatrixXf& want, const QString& what)
{
    QVERIFY2(got.rows() == want.rows() && got.cols() == want.cols(),
             qPrintable(what + QStringLiteral(": %1 x %2, want %3 x %4").arg(got.rows()).arg(got.cols()).arg(want.rows()).arg(want.cols())));
    float scale = 0;
    for (Eigen::Index i = 0; i < want.size(); ++i) {
        if (std::isfinite(want.data()[i]))
            scale = std::max(scale, std::abs(want.data()[i]));
    }
    const float tol = 1e-4f * std::max(scale, 1e-6f);
    for (Eigen::Index i = 0; i < want.rows(); ++i) {
        for (Eigen::Index j = 0; j < want.cols(); ++j) {
            if (std::isnan(want(i, j)))
                continue;
            QVERIFY2(std::abs(got(i, j) - want(i, j)) <= tol,
                     qPrintable(what + QStringLiteral(" (%1, %2): %3, want %4").arg(i).arg(j).arg(got(i, j)).arg(want(i, j))));
        }
    }
}

} // namespace attnlab::testing
