#include "nn/mask.h"

#include "core/message.h"
#include "core/messages.h"
#include "nn/messages.h"
#include "text/printable.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <limits>
#include <stdexcept>

namespace attnlab {

BoolMatrix blockedCells(MaskKind kind, const std::vector<std::string>& tokens, const std::optional<BoolMatrix>& custom)
{
    const auto n = static_cast<Eigen::Index>(tokens.size());
    const bool causal = kind == MaskKind::Causal || kind == MaskKind::CausalPadding;
    const bool padding = kind == MaskKind::Padding || kind == MaskKind::CausalPadding;
    // Look-ahead: query i may see keys 0..i only.
    BoolMatrix blocked = causal ? causalMask(n) : BoolMatrix::Constant(n, n, false);
    if (padding) {
        // A <pad> key is hidden from every query (the key padding mask).
        for (Eigen::Index j = 0; j < n; ++j) {
            if (tokens[static_cast<std::size_t>(j)] == kPadToken)
                blocked.col(j).setConstant(true);
        }
    }
    if (kind == MaskKind::Custom) {
        if (!custom)
            throw Error(messages::noMaskMatrix());
        if (custom->rows() != n || custom->cols() != n)
            throw Error(messages::maskSize(custom->rows(), custom->cols(), n));
        blocked = *custom;
    }
    return blocked;
}

BoolMatrix combineMasks(Eigen::Index queries, Eigen::Index keys, const std::optional<BoolMatrix>& attnMask,
                        const std::optional<BoolVector>& keyPadding, std::string_view maskName, std::string_view paddingName)
{
    BoolMatrix blocked = BoolMatrix::Constant(queries, keys, false);
    if (attnMask) {
        if (attnMask->rows() != queries || attnMask->cols() != keys)
            throw Error(say(nnMessage("mask_matrix_shape"), maskName, attnMask->rows(), attnMask->cols(), queries, keys));
        blocked = *attnMask;
    }
    if (keyPadding) {
        if (keyPadding->size() != keys)
            throw Error(say(nnMessage("mask_padding_size"), paddingName, keyPadding->size(), keys));
        // A padding key is hidden from every query, whatever the attention mask says.
        for (Eigen::Index j = 0; j < keys; ++j) {
            if ((*keyPadding)(j))
                blocked.col(j).setConstant(true);
        }
    }
    return blocked;
}

BoolMatrix causalMask(Eigen::Index n)
{
    BoolMatrix blocked = BoolMatrix::Constant(n, n, false);
    for (Eigen::Index i = 0; i < n; ++i) { // query i sees keys 0..i
        for (Eigen::Index j = i + 1; j < n; ++j)
            blocked(i, j) = true;
    }
    return blocked;
}

namespace {

void refuseCustom(MaskKind kind)
{
    if (kind == MaskKind::Custom)
        throw Error(say(coreMessage("custom_mask_transformer")));
}

} // namespace

std::optional<BoolMatrix> sourceAttentionMask(MaskKind kind, Eigen::Index n)
{
    refuseCustom(kind);
    if (kind == MaskKind::Causal || kind == MaskKind::CausalPadding)
        return causalMask(n);
    return std::nullopt;
}

std::optional<BoolVector> keyPaddingMask(MaskKind kind, const std::vector<std::string>& tokens)
{
    refuseCustom(kind);
    if (kind != MaskKind::Padding && kind != MaskKind::CausalPadding)
        return std::nullopt;
    BoolVector padding(static_cast<Eigen::Index>(tokens.size()));
    for (std::size_t j = 0; j < tokens.size(); ++j)
        padding(static_cast<Eigen::Index>(j)) = tokens[j] == kPadToken;
    return padding;
}

Eigen::MatrixXf additiveMask(const BoolMatrix& blocked)
{
    const float minusInf = -std::numeric_limits<float>::infinity();
    return blocked.select(Eigen::MatrixXf::Constant(blocked.rows(), blocked.cols(), minusInf),
                          Eigen::MatrixXf::Zero(blocked.rows(), blocked.cols()));
}

BoolMatrix parseMaskText(std::string_view text)
{
    text = utf8::withoutByteOrderMark(text); // as editors on Windows save it
    std::vector<std::vector<bool>> rows;
    int lineNo = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        if (const auto hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        std::vector<bool> row;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (c == '0' || c == '1')
                row.push_back(c == '1');
            else if (c != ' ' && c != ',' && c != '\t' && c != '\r')
                throw Error(say(nnMessage("mask_text_character"), lineNo, i + 1, describeCharacter(line, i)));
        }
        if (!row.empty())
            rows.push_back(std::move(row));
        if (rows.size() > static_cast<std::size_t>(ConfigLimits::maxTokens))
            throw Error(say(nnMessage("mask_text_rows"), ConfigLimits::maxTokens));
        if (end == text.size())
            break;
    }
    if (rows.empty())
        throw Error(say(nnMessage("mask_text_empty")));
    const auto n = rows.size();
    BoolMatrix m(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) {
        if (rows[i].size() != n)
            throw Error(say(nnMessage("mask_text_not_square"), i + 1, rows[i].size(), n));
        for (std::size_t j = 0; j < n; ++j)
            m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
    }
    return m;
}

} // namespace attnlab
