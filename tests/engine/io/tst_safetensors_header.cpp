// What a safetensors header may not say although its JSON is valid: a tensor (or a metadata
// key) named twice, which a JSON parser would settle silently by keeping one; two tensors
// sharing bytes of the data section. Files are built byte by byte: 8-byte little-endian header
// length, the JSON header, then the data.
#include "io/safetensors.h"

#include <QtTest>

#include <cstdint>

using attnlab::FormatError;

namespace {

/// A safetensors file: header length, header, data.
std::string stFile(const std::string& header, std::size_t dataBytes)
{
    std::string out;
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
    return out + header + std::string(dataBytes, '\0');
}

/// The FormatError message parsing `bytes` gives, or "" when it parses.
QString parseError(const std::string& bytes)
{
    try {
        attnlab::parseSafetensors(bytes);
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// A header entry of an F32 tensor of `n` values at [begin, begin + 4n).
std::string f32(int n, int begin)
{
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string entry = R"({"dtype":"F32","shape":[)";
    entry += std::to_string(n);
    entry += R"(],"data_offsets":[)";
    entry += std::to_string(begin);
    entry += ",";
    entry += std::to_string(begin + 4 * n);
    entry += "]}";
    return entry;
}

} // namespace

class TestSafetensorsHeader : public QObject {
    Q_OBJECT
private slots:
    void refused_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const std::string& header, int data, const char* message) {
            QTest::newRow(name) << QByteArray::fromStdString(header) << data << QString::fromUtf8(message);
        };
        row("tensor_named_twice", "{\"a\":" + f32(1, 0) + ",\"a\":" + f32(1, 4) + "}", 8, "the header names tensor 'a' twice");
        row("tensor_named_twice_apart", "{\"a\":" + f32(1, 0) + ",\"b\":" + f32(1, 4) + ",\"a\":" + f32(1, 8) + "}", 12,
            "the header names tensor 'a' twice");
        row("metadata_named_twice", "{\"__metadata__\":{\"heads\":\"2\",\"heads\":\"4\"},\"a\":" + f32(1, 0) + "}", 4,
            "the header has the key 'heads' twice");
        row("metadata_block_twice", "{\"__metadata__\":{},\"__metadata__\":{},\"a\":" + f32(1, 0) + "}", 4,
            "the header has the key '__metadata__' twice");
        row("same_bytes", "{\"a\":" + f32(2, 0) + ",\"b\":" + f32(2, 0) + "}", 8,
            "tensors 'a' [0, 8) and 'b' [0, 8) overlap in the data section");
        row("partial_overlap", "{\"a\":" + f32(2, 0) + ",\"b\":" + f32(2, 4) + "}", 12,
            "tensors 'a' [0, 8) and 'b' [4, 12) overlap in the data section");
        row("inside_another", "{\"big\":" + f32(4, 0) + ",\"small\":" + f32(1, 8) + "}", 16,
            "tensors 'big' [0, 16) and 'small' [8, 12) overlap in the data section");
        row("listed_out_of_order", "{\"z\":" + f32(2, 0) + ",\"a\":" + f32(2, 4) + "}", 12,
            "tensors 'z' [0, 8) and 'a' [4, 12) overlap in the data section");
        // An empty tensor with a huge size: 3 · 2^62 overflowed in the attention weights' shape
        // check (found with fuzz_weights under UBSan). Sizes multiply within bounds even next to a 0.
        row("zero_next_to_a_huge_size", R"({"in_proj_weight":{"dtype":"F32","shape":[0,4611686018427387904],"data_offsets":[0,0]}})", 0,
            "tensor 'in_proj_weight': shape is too large");
        row("huge_sizes_around_a_zero", R"({"a":{"dtype":"F16","shape":[4294967296,0,4294967296],"data_offsets":[0,0]}})", 0,
            "tensor 'a': shape is too large");
        row("control_characters_in_name", "{\"\\u001b]0;x\\u0007\":" + f32(1, 0) + ",\"\\u001b]0;x\\u0007\":" + f32(1, 4) + "}", 8,
            "the header names tensor '\\x1b]0;x\\x07' twice");
    }

    void refused()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, dataBytes);
        QFETCH(QString, message);
        const QString error = parseError(stFile(header.toStdString(), static_cast<std::size_t>(dataBytes)));
        QCOMPARE(error, message);
    }

    void accepted_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<int>("tensors");
        const auto row = [](const char* name, const std::string& header, int data, int tensors) {
            QTest::newRow(name) << QByteArray::fromStdString(header) << data << tensors;
        };
        row("adjacent", "{\"a\":" + f32(2, 0) + ",\"b\":" + f32(2, 8) + "}", 16, 2);
        row("empty_tensors_share_an_offset",
            R"({"e":{"dtype":"F32","shape":[0],"data_offsets":[4,4]},"f":{"dtype":"F32","shape":[2,0],"data_offsets":[4,4]},"a":)"
                + f32(2, 0) + "}",
            8, 3);
        row("same_key_in_two_entries", "{\"a\":" + f32(1, 0) + ",\"b\":" + f32(1, 4) + "}", 8, 2); // "dtype" in each entry
        row("gap_between", "{\"a\":" + f32(1, 0) + ",\"b\":" + f32(1, 8) + "}", 12, 2);
    }

    void accepted()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, dataBytes);
        QFETCH(int, tensors);
        try {
            const auto file = attnlab::parseSafetensors(stFile(header.toStdString(), static_cast<std::size_t>(dataBytes)));
            QCOMPARE(static_cast<int>(file.tensors.size()), tensors);
        } catch (const FormatError& e) {
            QFAIL(e.what());
        }
    }

    void headerOfTooManyValues()
    {
        // A 16 MB header of 8 million small values took about 20 times its size as parsed JSON
        // (1 GB for the largest header allowed, 100 MB); it is refused while it is read.
        std::string shape = "[0";
        shape.reserve(2 * 8'000'001);
        for (int i = 0; i < 8'000'000; ++i)
            shape += ",0";
        shape += "]";
        const QString error = parseError(stFile(R"({"a":{"dtype":"F32","data_offsets":[0,0],"shape":)" + shape + "}}", 0));
        QCOMPARE(error, QStringLiteral("the safetensors header holds more than 8000000 JSON values (no tensor file needs that many)"));
    }

    void writtenFilesReadBack()
    {
        // The writer lays tensors end to end: its files pass both checks.
        attnlab::TensorFile file;
        file.tensors["b"] = {"F32", {2}, {1.0f, 2.0f}};
        file.tensors["a"] = {"F32", {1, 3}, {3.0f, 4.0f, 5.0f}};
        file.tensors["empty"] = {"F32", {0}, {}};
        file.metadata.emplace("heads", "1");
        const auto back = attnlab::parseSafetensors(attnlab::serializeSafetensors(file));
        QCOMPARE(back.tensors.size(), std::size_t(3));
        QCOMPARE(back.tensors.at("a").values, (std::vector<float>{3.0f, 4.0f, 5.0f}));
        QCOMPARE(back.metadata.at("heads"), std::string("1"));
    }
};

QTEST_APPLESS_MAIN(TestSafetensorsHeader)
#include "tst_safetensors_header.moc"
