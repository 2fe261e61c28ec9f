#pragma once
// File names the studio suggests for what it exports, made from what is on screen: the stage,
// its place in a Transformer, the head and the sentence ("weights-head1-狗咬了人.png") rather
// than one fixed "attention.png". Characters a file system refuses are dropped, spaces become
// "_", letters of every script (Chinese included) stay, and the name stays short.

#include <QString>

#include <optional>

namespace attnlab {

/// What a suggested name is made of; empty parts are left out.
struct ExportNameParts {
    QString prefix;               ///< "compare" for a comparison, else empty
    QString stage;                ///< the stage id ("weights") or "lesson"
    std::optional<int> layer;     ///< 1-based layer of a Transformer's step
    QString block;                ///< "self", "cross" … (core/stage_key.h's names)
    std::optional<int> head;      ///< 1-based head of a per-head stage
    bool allHeads = false;        ///< the all-heads grid: "heads" instead of one head
    QString text;                 ///< the sentence, or a lesson's title
};

/// The longest the sentence part of a name may be, in characters (a CJK character is 3 bytes
/// in UTF-8: 40 of them stay far below the 255 bytes file systems allow).
constexpr int kMaxNameTextChars = 40;

/// `text` as part of a file name: characters not allowed in file names on Linux, macOS or
/// Windows (/ \ : * ? " < > | and control characters) dropped, runs of white space as one "_",
/// no leading or trailing dots, "_" or "-", at most `maxChars` characters (never half of a
/// surrogate pair). Letters and digits of every script are kept.
QString fileNamePart(const QString& text, int maxChars = kMaxNameTextChars);

/// "<prefix>-<stage>-layer<L>-<block>-head<h>-<text>.<suffix>" with the empty parts left out:
/// "weights-head1-狗咬了人.png", "compare-scores-layer2-cross-head3-the_dog.svg". When every part
/// is empty, "attention.<suffix>".
QString suggestedExportName(const ExportNameParts& parts, const QString& suffix);

} // namespace attnlab
