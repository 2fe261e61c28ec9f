#pragma once
// The real GPT-2 and BERT vocabularies and the reference tokenizations of
// scripts/gen_tokenizer_reference.py (tests/reference/tokenizers/), shared by the tests of the
// two subword tokenizers.

#include "io/safetensors.h"
#include "text/subword.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::testing {

inline std::string tokenizerDir()
{
    return ATTNLAB_TEST_DATA "/tokenizers";
}

inline std::string gpt2VocabPath()
{
    return tokenizerDir() + "/gpt2/encoder.json";
}

inline std::string gpt2MergesPath()
{
    return tokenizerDir() + "/gpt2/vocab.bpe";
}

inline std::string bertVocabPath()
{
    return tokenizerDir() + "/bert/vocab.txt";
}

/// The cases of one tokenizer in cases.json: "gpt2", "bert_uncased" or "bert_cased".
inline nlohmann::json tokenizerCases(const std::string& key)
{
    std::ifstream in(tokenizerDir() + "/cases.json");
    if (!in)
        throw std::runtime_error("cannot open " + tokenizerDir() + "/cases.json");
    return nlohmann::json::parse(in).at(key);
}

/// A case's text as bytes: "text", or "text_hex" for bytes that are not UTF-8.
inline std::string caseText(const nlohmann::json& c, const char* key = "text")
{
    if (c.contains(key))
        return c.at(key).get<std::string>();
    const std::string hex = c.at(std::string(key) + "_hex").get<std::string>();
    return QByteArray::fromHex(QByteArray::fromStdString(hex)).toStdString();
}

/// The vocabulary strings of an encoding, for QCOMPARE.
inline QStringList tokensOf(const SubwordEncoding& e)
{
    QStringList out;
    for (const auto& t : e.tokens)
        out << QString::fromStdString(t);
    return out;
}

/// "" when the two lists are equal, else where they first differ.
template <class T>
QString firstDifference(const std::vector<T>& got, const std::vector<T>& expected, const std::function<QString(const T&)>& show)
{
    const std::size_t n = std::min(got.size(), expected.size());
    for (std::size_t i = 0; i < n; ++i)
        if (!(got[i] == expected[i]))
            return QStringLiteral("item %1: got %2, expected %3").arg(i).arg(show(got[i]), show(expected[i]));
    if (got.size() != expected.size())
        return QStringLiteral("got %1 items, expected %2").arg(got.size()).arg(expected.size());
    return {};
}

inline QString differenceOfIds(const std::vector<int>& got, const std::vector<int>& expected)
{
    return firstDifference<int>(got, expected, [](const int& id) { return QString::number(id); });
}

inline QString differenceOfTokens(const std::vector<std::string>& got, const std::vector<std::string>& expected)
{
    return firstDifference<std::string>(got, expected, [](const std::string& t) { return "'" + QString::fromStdString(t) + "'"; });
}

/// The message of the FormatError `f` throws ("" when it throws none; another exception's
/// message behind "!").
template <typename F>
QString formatErrorMessage(F f)
{
    try {
        f();
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("!another exception: ") + QString::fromStdString(e.what());
    }
    return {};
}

/// `paragraph` repeated, `separator` after each, until the text holds at least `bytes` bytes.
inline std::string repeatedTo(const std::string& paragraph, std::size_t bytes, const std::string& separator = " ")
{
    std::string text;
    while (text.size() < bytes)
        text += paragraph + separator;
    return text;
}

} // namespace attnlab::testing
