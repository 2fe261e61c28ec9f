// The safetensors reader and writer (docs/engine.md, section 8) and the crash-safe file
// writes of fileio.h. Files are built byte by byte here: 8-byte little-endian header length,
// the JSON header, then the data.
#include "io/fileio.h"
#include "io/safetensors.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/resource.h>
#endif

using attnlab::FormatError;
using attnlab::Tensor;
using attnlab::TensorFile;

namespace {

QByteArray le16(std::uint16_t v)
{
    QByteArray out;
    out += char(v & 0xFF);
    out += char(v >> 8);
    return out;
}

QByteArray le32(std::uint32_t v)
{
    QByteArray out;
    for (int i = 0; i < 4; ++i)
        out += char((v >> (8 * i)) & 0xFF);
    return out;
}

QByteArray le64(std::uint64_t v)
{
    QByteArray out;
    for (int i = 0; i < 8; ++i)
        out += char((v >> (8 * i)) & 0xFF);
    return out;
}

/// A safetensors file: header length, header, data.
QByteArray stFile(const QByteArray& header, const QByteArray& data = {})
{
    return le64(std::uint64_t(header.size())) + header + data;
}

/// A file with one tensor "w" described by `entry` (the JSON object of its header entry).
QByteArray oneTensor(const QByteArray& entry, const QByteArray& data)
{
    return stFile("{\"w\":" + entry + "}", data);
}

std::string_view view(const QByteArray& b)
{
    return {b.constData(), std::size_t(b.size())};
}

QByteArray bitsText(float v)
{
    return QByteArray::number(double(v), 'g', 9) + " (0x" + QByteArray::number(std::bit_cast<std::uint32_t>(v), 16) + ")";
}

/// Bit-exact float equality (so -0 differs from +0); any NaN equals any NaN.
bool sameFloat(float a, float b)
{
    return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

QByteArray compareValues(const std::vector<float>& got, const std::vector<float>& expected)
{
    if (got.size() != expected.size())
        return "got " + QByteArray::number(qulonglong(got.size())) + " values, expected " + QByteArray::number(qulonglong(expected.size()));
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (!sameFloat(got[i], expected[i]))
            return "value " + QByteArray::number(qulonglong(i)) + ": got " + bitsText(got[i]) + ", expected " + bitsText(expected[i]);
    }
    return {};
}

#define COMPARE_VALUES(got, expected)                                                                                  \
    do {                                                                                                               \
        const QByteArray why_ = compareValues((got), (expected));                                                      \
        QVERIFY2(why_.isEmpty(), why_.constData());                                                                    \
    } while (false)

/// Parses `bytes`, which must fail with FormatError; returns its message, or a description of what
/// happened instead prefixed with "!".
QString formatErrorOf(const QByteArray& bytes)
{
    try {
        attnlab::parseSafetensors(view(bytes));
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("!another exception: ") + QString::fromStdString(e.what());
    }
    return QStringLiteral("!no exception");
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

private slots:
    // --- 16-bit conversions ---

    void halfToFloat_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("expected");
        QTest::newRow("zero") << 0x0000 << 0.0f;
        QTest::newRow("minus_zero") << 0x8000 << -0.0f;
        QTest::newRow("one") << 0x3C00 << 1.0f;
        QTest::newRow("minus_one") << 0xBC00 << -1.0f;
        QTest::newRow("minus_two") << 0xC000 << -2.0f;
        QTest::newRow("half") << 0x3800 << 0.5f;
        QTest::newRow("one_third") << 0x3555 << 0.333251953125f; // 0x555 / 1024 * 2^-2 + 2^-2
        QTest::newRow("pi") << 0x4248 << 3.140625f;
        QTest::newRow("hundred") << 0x5640 << 100.0f;
        QTest::newRow("max") << 0x7BFF << 65504.0f;
        QTest::newRow("min_normal") << 0x0400 << 0x1p-14f;
        QTest::newRow("max_subnormal") << 0x03FF << 1023 * 0x1p-24f;
        QTest::newRow("min_subnormal") << 0x0001 << 0x1p-24f;
        QTest::newRow("minus_min_subnormal") << 0x8001 << -0x1p-24f;
        QTest::newRow("inf") << 0x7C00 << kInf;
        QTest::newRow("minus_inf") << 0xFC00 << -kInf;
        QTest::newRow("nan") << 0x7E00 << kNaN;
        QTest::newRow("signalling_nan") << 0x7C01 << kNaN;
    }
    void halfToFloat()
    {
        QFETCH(int, bits);
        QFETCH(float, expected);
        const float got = attnlab::halfToFloat(std::uint16_t(bits));
        QVERIFY2(sameFloat(got, expected), ("got " + bitsText(got) + ", expected " + bitsText(expected)).constData());
    }

    void bfloat16ToFloat_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("expected");
        QTest::newRow("zero") << 0x0000 << 0.0f;
        QTest::newRow("minus_zero") << 0x8000 << -0.0f;
        QTest::newRow("one") << 0x3F80 << 1.0f;
        QTest::newRow("minus_one") << 0xBF80 << -1.0f;
        QTest::newRow("minus_two") << 0xC000 << -2.0f;
        QTest::newRow("quarter") << 0x3E80 << 0.25f;
        QTest::newRow("ten") << 0x4120 << 10.0f;
        QTest::newRow("pi") << 0x4049 << 3.140625f;
        QTest::newRow("max") << 0x7F7F << 0x1.FEp127f;
        QTest::newRow("min_normal") << 0x0080 << 0x1p-126f;
        QTest::newRow("min_subnormal") << 0x0001 << 0x1p-133f;
        QTest::newRow("inf") << 0x7F80 << kInf;
        QTest::newRow("minus_inf") << 0xFF80 << -kInf;
        QTest::newRow("nan") << 0x7FC0 << kNaN;
    }
    void bfloat16ToFloat()
    {
        QFETCH(int, bits);
        QFETCH(float, expected);
        const float got = attnlab::bfloat16ToFloat(std::uint16_t(bits));
        QVERIFY2(sameFloat(got, expected), ("got " + bitsText(got) + ", expected " + bitsText(expected)).constData());
    }

    // --- writing and reading back ---

    void roundTrip()
    {
        TensorFile f;
        f.tensors["b.matrix"] = Tensor{"F32", {2, 3}, {1.0f, -2.5f, 0.1f, -0.0f, kInf, 0x1p-149f}};
        f.tensors["a.vector"] = Tensor{"F32", {4}, {3.0f, -kInf, 65504.0f, 1e30f}};
        f.tensors["c.empty"] = Tensor{"F32", {0, 3}, {}};
        f.metadata["format"] = "attention-lab.weights";
        f.metadata["num_heads"] = "4";

        const std::string bytes = attnlab::serializeSafetensors(f);
        QVERIFY(bytes.size() >= 8);
        std::uint64_t headerLen = 0;
        for (int i = 7; i >= 0; --i)
            headerLen = (headerLen << 8) | static_cast<unsigned char>(bytes[std::size_t(i)]);
        QVERIFY2(headerLen % 8 == 0, QByteArray::number(qulonglong(headerLen)).constData());
        QCOMPARE(bytes.size(), std::size_t(8 + headerLen + 4 * (6 + 4)));

        // The header is JSON with F32 entries, keys sorted, the data packed in key order.
        const std::string header = bytes.substr(8, headerLen);
        const auto json = nlohmann::json::parse(header);
        QCOMPARE(json.at("a.vector").at("dtype").get<std::string>(), std::string("F32"));
        QVERIFY(json.at("a.vector").at("data_offsets") == nlohmann::json::parse("[0, 16]"));
        QVERIFY(json.at("b.matrix").at("data_offsets") == nlohmann::json::parse("[16, 40]"));
        QVERIFY(json.at("b.matrix").at("shape") == nlohmann::json::parse("[2, 3]"));
        QVERIFY(header.find("\"a.vector\"") < header.find("\"b.matrix\""));
        QVERIFY(header.find("\"b.matrix\"") < header.find("\"c.empty\""));
        QCOMPARE(json.at("__metadata__").at("num_heads").get<std::string>(), std::string("4"));
        // 3.0f little-endian right after the header.
        QCOMPARE(QByteArray::fromStdString(bytes.substr(8 + headerLen, 4)), le32(0x40400000));

        const TensorFile back = attnlab::parseSafetensors(bytes);
        QCOMPARE(back.tensors.size(), std::size_t(3));
        for (const auto& [name, t] : f.tensors) {
            QVERIFY2(back.tensors.count(name), name.c_str());
            const Tensor& b = back.tensors.at(name);
            QCOMPARE(b.dtype, std::string("F32"));
            QVERIFY2(b.shape == t.shape, name.c_str());
            COMPARE_VALUES(b.values, t.values);
        }
        QCOMPARE(back.tensors.at("c.empty").numel(), std::int64_t(0));
        QCOMPARE(back.tensors.at("b.matrix").numel(), std::int64_t(6));
        QVERIFY(back.metadata == f.metadata);
    }

    void roundTripNaNAndEmptyFile()
    {
        TensorFile f;
        f.tensors["x"] = Tensor{"F32", {1}, {kNaN}};
        const TensorFile back = attnlab::parseSafetensors(attnlab::serializeSafetensors(f));
        QVERIFY(std::isnan(back.tensors.at("x").values.at(0)));

        const std::string empty = attnlab::serializeSafetensors(TensorFile{});
        QCOMPARE((empty.size() - 8) % 8, std::size_t(0));
        const TensorFile none = attnlab::parseSafetensors(empty);
        QVERIFY(none.tensors.empty() && none.metadata.empty());
    }

    // --- hand-built files ---

    void handBuiltF16()
    {
        const QByteArray data = le16(0x3C00) + le16(0xC000) + le16(0x7BFF) + le16(0x0001);
        const auto file = attnlab::parseSafetensors(
            view(oneTensor(R"({"dtype":"F16","shape":[2,2],"data_offsets":[0,8]})", data)));
        const Tensor& t = file.tensors.at("w");
        QCOMPARE(t.dtype, std::string("F16"));
        QVERIFY(t.shape == (std::vector<std::int64_t>{2, 2}));
        COMPARE_VALUES(t.values, (std::vector<float>{1.0f, -2.0f, 65504.0f, 0x1p-24f}));
    }

    void handBuiltBF16()
    {
        const QByteArray data = le16(0x3F80) + le16(0x4049) + le16(0xBF80);
        const auto file = attnlab::parseSafetensors(
            view(oneTensor(R"({"dtype":"BF16","shape":[3],"data_offsets":[0,6]})", data)));
        const Tensor& t = file.tensors.at("w");
        QCOMPARE(t.dtype, std::string("BF16"));
        COMPARE_VALUES(t.values, (std::vector<float>{1.0f, 3.140625f, -1.0f}));
    }

    void handBuiltF64()
    {
        // 2.5, 0.1 and 1/3 as IEEE doubles; read as the nearest float32.
        const QByteArray data = le64(0x4004000000000000ULL) + le64(0x3FB999999999999AULL) + le64(0x3FD5555555555555ULL);
        const auto file = attnlab::parseSafetensors(
            view(oneTensor(R"({"dtype":"F64","shape":[1,3],"data_offsets":[0,24]})", data)));
        const Tensor& t = file.tensors.at("w");
        QCOMPARE(t.dtype, std::string("F64"));
        const std::vector<float> expected{2.5f, std::bit_cast<float>(0x3DCCCCCDu), std::bit_cast<float>(0x3EAAAAABu)};
        COMPARE_VALUES(t.values, expected);
    }

    void handBuiltMixed()
    {
        // Two tensors listed out of data order, an F32 at an unaligned offset, padding spaces
        // in the header, metadata, an empty tensor and unused bytes after the data.
        const QByteArray header = R"({"__metadata__":{"k":"v"},"f":{"dtype":"F32","shape":[2],"data_offsets":[2,10]},)"
                                  R"("h":{"dtype":"F16","shape":[1],"data_offsets":[0,2]},)"
                                  R"("e":{"dtype":"BF16","shape":[0],"data_offsets":[10,10]}}   )";
        const QByteArray data = le16(0x3800) + le32(0x3F800000) + le32(0xC0000000) + QByteArray("xx");
        const auto file = attnlab::parseSafetensors(view(stFile(header, data)));
        QCOMPARE(file.tensors.size(), std::size_t(3));
        COMPARE_VALUES(file.tensors.at("h").values, std::vector<float>{0.5f});
        COMPARE_VALUES(file.tensors.at("f").values, (std::vector<float>{1.0f, -2.0f}));
        QVERIFY(file.tensors.at("e").values.empty());
        QCOMPARE(file.metadata.at("k"), std::string("v"));
    }

    void readsPythonWrittenFiles_data()
    {
        // Written by scripts/safetensors_io.py (gen_reference.py): dtype and d_model per case.
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("d");
        QTest::newRow("f16") << "f16" << "F16" << 16;
        QTest::newRow("bf16") << "bf16" << "BF16" << 8;
        QTest::newRow("f64") << "f64" << "F64" << 8;
        QTest::newRow("f32") << "causal_je" << "F32" << 16;
    }
    void readsPythonWrittenFiles()
    {
        QFETCH(QString, name);
        QFETCH(QString, dtype);
        QFETCH(int, d);
        const auto file = attnlab::readSafetensors(ATTNLAB_TEST_DATA "/mha/" + name.toStdString() + ".safetensors");
        const Tensor& w = file.tensors.at("in_proj_weight");
        QCOMPARE(QString::fromStdString(w.dtype), dtype);
        QVERIFY(w.shape == (std::vector<std::int64_t>{3 * d, d}));
        QCOMPARE(w.values.size(), std::size_t(3 * d * d));
        for (const float v : w.values)
            QVERIFY2(std::isfinite(v) && std::abs(v) < 10.0f, bitsText(v).constData()); // randn * 0.3
        QVERIFY(file.metadata.count("num_heads"));
    }

    // --- corrupt files: always FormatError, never a crash ---

    void corruptFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mention"); // must appear in the message (empty: any message)

        const QByteArray f32x2 = le32(0x3F800000) + le32(0x40000000);
        QTest::newRow("empty") << QByteArray() << "8";
        QTest::newRow("seven_bytes") << QByteArray("\x02\0\0\0\0\0\0", 7) << "8";
        QTest::newRow("header_length_zero") << (le64(0) + "{}") << "";
        QTest::newRow("header_length_huge") << (le64(~0ULL) + "{}") << "";
        QTest::newRow("header_length_2_63") << (le64(1ULL << 63) + "{}") << "";
        QTest::newRow("header_length_over_100MB") << (le64(100ULL * 1024 * 1024 + 1) + "{}") << "";
        QTest::newRow("header_beyond_file") << (le64(100) + "{}") << "";
        QTest::newRow("header_one_byte_short") << (le64(3) + "{}") << "";
        QTest::newRow("not_json") << stFile("{not json}") << "JSON";
        QTest::newRow("truncated_json") << stFile("{\"w\":") << "JSON";
        QTest::newRow("binary_header") << stFile(QByteArray("\xFF\xFE\0\x01", 4)) << "JSON";
        QTest::newRow("header_array") << stFile("[]") << "object";
        QTest::newRow("header_number") << stFile("42") << "object";
        QTest::newRow("header_string") << stFile("\"w\"") << "object";
        QTest::newRow("entry_not_object") << stFile(R"({"w":5})") << "w";
        QTest::newRow("missing_dtype") << oneTensor(R"({"shape":[2],"data_offsets":[0,8]})", f32x2) << "dtype";
        QTest::newRow("dtype_not_string") << oneTensor(R"({"dtype":4,"shape":[2],"data_offsets":[0,8]})", f32x2) << "dtype";
        QTest::newRow("dtype_I8") << oneTensor(R"({"dtype":"I8","shape":[8],"data_offsets":[0,8]})", f32x2) << "I8";
        QTest::newRow("dtype_F8") << oneTensor(R"({"dtype":"F8_E4M3","shape":[8],"data_offsets":[0,8]})", f32x2) << "F8_E4M3";
        QTest::newRow("dtype_lower_case") << oneTensor(R"({"dtype":"f32","shape":[2],"data_offsets":[0,8]})", f32x2) << "f32";
        QTest::newRow("missing_shape") << oneTensor(R"({"dtype":"F32","data_offsets":[0,8]})", f32x2) << "shape";
        QTest::newRow("shape_not_array") << oneTensor(R"({"dtype":"F32","shape":2,"data_offsets":[0,8]})", f32x2) << "shape";
        QTest::newRow("negative_shape") << oneTensor(R"({"dtype":"F32","shape":[-1,-2],"data_offsets":[0,8]})", f32x2) << "shape";
        QTest::newRow("fractional_shape") << oneTensor(R"({"dtype":"F32","shape":[1.5],"data_offsets":[0,8]})", f32x2) << "shape";
        QTest::newRow("string_shape") << oneTensor(R"({"dtype":"F32","shape":["2"],"data_offsets":[0,8]})", f32x2) << "shape";
        // 2^32 * 2^32 * 4 bytes wraps to 0 in 64 bits: only an overflow check catches it.
        QTest::newRow("shape_overflow") << oneTensor(R"({"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]})", {}) << "";
        QTest::newRow("shape_overflow_huge") << oneTensor(R"({"dtype":"F64","shape":[18446744073709551615],"data_offsets":[0,8]})", f32x2) << "";
        QTest::newRow("missing_offsets") << oneTensor(R"({"dtype":"F32","shape":[2]})", f32x2) << "data_offsets";
        QTest::newRow("offsets_one_number") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":[8]})", f32x2) << "data_offsets";
        QTest::newRow("offsets_three_numbers") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8,8]})", f32x2) << "data_offsets";
        QTest::newRow("offsets_negative") << oneTensor(R"({"dtype":"F32","shape":[0],"data_offsets":[-4,-4]})", f32x2) << "data_offsets";
        QTest::newRow("offsets_strings") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":["0","8"]})", f32x2) << "data_offsets";
        QTest::newRow("offsets_beyond_data") << oneTensor(R"({"dtype":"F32","shape":[4],"data_offsets":[0,16]})", f32x2) << "w";
        QTest::newRow("offsets_far_beyond") << oneTensor(R"({"dtype":"F32","shape":[1],"data_offsets":[18446744073709551612,18446744073709551615]})", f32x2) << "w";
        QTest::newRow("begin_after_end") << oneTensor(R"({"dtype":"F32","shape":[1],"data_offsets":[8,4]})", f32x2) << "data_offsets";
        QTest::newRow("size_too_small") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":[0,4]})", f32x2) << "w";
        QTest::newRow("size_too_large") << oneTensor(R"({"dtype":"F32","shape":[1],"data_offsets":[0,8]})", f32x2) << "w";
        QTest::newRow("size_wrong_dtype") << oneTensor(R"({"dtype":"F16","shape":[2],"data_offsets":[0,8]})", f32x2) << "w";
        QTest::newRow("truncated_data") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})", f32x2.left(6)) << "w";
        QTest::newRow("no_data_at_all") << oneTensor(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})", {}) << "w";
        QTest::newRow("metadata_number") << stFile(R"({"__metadata__":{"num_heads":4}})") << "__metadata__";
        QTest::newRow("metadata_null") << stFile(R"({"__metadata__":{"k":null}})") << "__metadata__";
        QTest::newRow("metadata_not_object") << stFile(R"({"__metadata__":"x"})") << "__metadata__";
    }
    void corruptFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mention);
        const QString msg = formatErrorOf(bytes);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(msg));
        QVERIFY2(!msg.isEmpty(), "empty message");
        QVERIFY2(msg.contains(mention), qPrintable(QStringLiteral("'%1' not in: %2").arg(mention, msg)));
    }

    void everyTruncationAndByteChangeIsHandled()
    {
        // A valid file with two tensors; every shorter prefix must fail with FormatError, and
        // every single-byte change must either parse consistently or fail with FormatError.
        const QByteArray valid = stFile(R"({"__metadata__":{"k":"v"},"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},)"
                                        R"("b":{"dtype":"F32","shape":[1,1],"data_offsets":[4,8]}})",
                                        le16(0x3C00) + le16(0xC000) + le32(0x3F800000));
        QCOMPARE(attnlab::parseSafetensors(view(valid)).tensors.size(), std::size_t(2));
        for (qsizetype n = 0; n < valid.size(); ++n) {
            const QString msg = formatErrorOf(valid.left(n));
            QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(QStringLiteral("prefix of %1 bytes: %2").arg(n).arg(msg)));
        }
        const char replacements[] = {'\0', '\x7F', '\x80', '\xFF', '"', '{', '-', '9', ' ', 'e'};
        for (qsizetype i = 0; i < valid.size(); ++i) {
            for (const char r : replacements) {
                QByteArray bytes = valid;
                bytes[i] = r;
                try {
                    const TensorFile f = attnlab::parseSafetensors(view(bytes));
                    for (const auto& [name, t] : f.tensors)
                        QVERIFY2(std::int64_t(t.values.size()) == t.numel(), qPrintable(QStringLiteral("byte %1").arg(i)));
                } catch (const FormatError&) {
                } catch (const std::exception& e) {
                    QFAIL(qPrintable(QStringLiteral("byte %1 = 0x%2: %3").arg(i).arg(uchar(r), 2, 16, QLatin1Char('0')).arg(e.what())));
                }
            }
        }
    }

    void readSafetensorsErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY_THROWS_EXCEPTION(FormatError, attnlab::readSafetensors(dir.filePath("missing.safetensors").toStdString()));
        QVERIFY_THROWS_EXCEPTION(FormatError, attnlab::readSafetensors(dir.path().toStdString()));
        const QString junk = dir.filePath("junk.safetensors");
        QVERIFY(writeAll(junk, "not a safetensors file at all"));
        try {
            attnlab::readSafetensors(junk.toStdString());
            QFAIL("no FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(junk), e.what()); // names the file
        }
    }

    void readSafetensorsFromDisk()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("w.safetensors");
        QVERIFY(writeAll(path, oneTensor(R"({"dtype":"BF16","shape":[1],"data_offsets":[0,2]})", le16(0x4120))));
        const auto file = attnlab::readSafetensors(path.toStdString());
        COMPARE_VALUES(file.tensors.at("w").values, std::vector<float>{10.0f});
    }

    // --- fileio ---

    void writeFileAtomicallyReplaces()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("out.bin");
        attnlab::writeFileAtomically(path.toStdString(), "first version");
        QCOMPARE(readAll(path), QByteArray("first version"));
        attnlab::writeFileAtomically(path.toStdString(), std::string_view("new\0bytes", 9));
        QCOMPARE(readAll(path), QByteArray("new\0bytes", 9));
        QCOMPARE(QString::fromStdString(attnlab::readFile(path.toStdString(), 100)), QString::fromLatin1("new\0bytes", 9));
        // No temporary file is left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out.bin"});
    }

    void writeIntoMissingDirectoryFails()
    {
        // Tests run as root, so permissions cannot make a directory unwritable: a directory that
        // does not exist, or a parent that is a regular file, can't be written into by anyone.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString earlier = dir.filePath("earlier.bin");
        QVERIFY(writeAll(earlier, "keep me"));
        for (const QString& target : {dir.filePath("no-such-dir/out.bin"), dir.filePath("earlier.bin/out.bin")}) {
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, attnlab::writeFileAtomically(target.toStdString(), "data"));
            QCOMPARE(readAll(earlier), QByteArray("keep me"));
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("no-such-dir")));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"earlier.bin"});
    }

    void writeOntoDirectoryFails()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir("target"));
        const QString inside = dir.filePath("target/keep.txt");
        QVERIFY(writeAll(inside, "keep me"));
        try {
            attnlab::writeFileAtomically(dir.filePath("target").toStdString(), "data");
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(dir.filePath("target")), e.what());
        }
        QVERIFY(QFileInfo(dir.filePath("target")).isDir());
        QCOMPARE(readAll(inside), QByteArray("keep me"));
    }

    void failedWriteKeepsEarlierFile()
    {
#ifdef Q_OS_LINUX
        // A file size limit makes the write itself fail half-way (EFBIG), even for root.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("out.bin");
        QVERIFY(writeAll(path, "earlier contents"));

        rlimit old{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &old) == 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old;
        small.rlim_cur = 64;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        bool threw = false;
        try {
            attnlab::writeFileAtomically(path.toStdString(), std::string(1 << 20, 'x'));
        } catch (const std::runtime_error&) {
            threw = true;
        }
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);

        QVERIFY2(threw, "a write beyond the file size limit did not throw");
        QCOMPARE(readAll(path), QByteArray("earlier contents"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out.bin"});
#else
        QSKIP("needs RLIMIT_FSIZE");
#endif
    }

    void readFileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("ten.bin");
        QVERIFY(writeAll(path, "0123456789"));
        QCOMPARE(attnlab::readFile(path.toStdString(), 10), std::string("0123456789"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, attnlab::readFile(path.toStdString(), 9)); // too large
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, attnlab::readFile(dir.filePath("missing").toStdString(), 100));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, attnlab::readFile(dir.path().toStdString(), 100));
    }
};

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
