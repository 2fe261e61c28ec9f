// The memory-mapped safetensors reader (io/mapped_safetensors.h): F32 tensors are views of the
// file, BF16 ones are widened to float32 once, and the file's pages of a widened tensor leave the
// process's resident memory (a 0.5 B-parameter BF16 checkpoint would otherwise hold its 1 GB of
// file pages next to the 2 GB of floats made from them). The file is built byte by byte here.
#include "io/mapped_safetensors.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cstdint>
#include <string>
#include <utility>

using attnlab::FloatSpan;
using attnlab::MappedSafetensors;

namespace {

constexpr int kValues = 65536; // 128 KB of BF16 (32 pages of 4 KB), 256 KB of F32

/// The BF16 bits of value i: 1.0 … 1.9921875 and their negatives, by hand (sign, exponent 127,
/// a 7-bit mantissa i % 128), so the float they widen to is (−1)^s · (1 + m/128).
std::uint16_t bf16Bits(int i)
{
    return static_cast<std::uint16_t>((i % 256 >= 128 ? 0x8000 : 0) | 0x3F80 | (i % 128));
}

float expectedBf16(int i)
{
    const float magnitude = 1.0f + static_cast<float>(i % 128) / 128.0f;
    return i % 256 >= 128 ? -magnitude : magnitude;
}

void appendLe(QByteArray& out, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out += char((v >> (8 * i)) & 0xFF);
}

/// A file with "a" (BF16, kValues) then "b" (F32, kValues, value i = i), the data 8-byte aligned.
QByteArray fileBytes()
{
    QByteArray header = QByteArray("{\"a\":{\"dtype\":\"BF16\",\"shape\":[") + QByteArray::number(kValues)
                        + "],\"data_offsets\":[0," + QByteArray::number(2 * kValues) + "]},\"b\":{\"dtype\":\"F32\",\"shape\":["
                        + QByteArray::number(kValues) + "],\"data_offsets\":[" + QByteArray::number(2 * kValues) + ","
                        + QByteArray::number(6 * kValues) + "]}}";
    while (header.size() % 8 != 0)
        header += ' ';
    QByteArray out;
    appendLe(out, static_cast<std::uint64_t>(header.size()), 8);
    out += header;
    for (int i = 0; i < kValues; ++i)
        appendLe(out, bf16Bits(i), 2);
    for (int i = 0; i < kValues; ++i)
        appendLe(out, std::bit_cast<std::uint32_t>(static_cast<float>(i)), 4);
    return out;
}

/// Of the pages wholly inside bytes [from, to) of the file `path` as this process maps it, how
/// many are resident in the process (present in /proc/self/pagemap) and how many there are;
/// {-1, -1} when the system cannot say. Only the pages of this one tensor: the kernel maps the
/// pages around a read one too (fault-around, large folios), so a count over the whole mapping
/// would depend on the kernel.
std::pair<int, int> residentPages(const QString& path, qint64 from, qint64 to)
{
    QFile smaps("/proc/self/smaps");
    QFile pagemap("/proc/self/pagemap");
    if (!smaps.open(QIODevice::ReadOnly | QIODevice::Text) || !pagemap.open(QIODevice::ReadOnly))
        return {-1, -1};
    quint64 start = 0;
    for (const QByteArray& line : smaps.readAll().split('\n')) {
        // A mapping's first line: "start-end perms offset dev inode   path".
        const QByteArray range = line.split(' ').value(0);
        if (range.contains('-') && line.trimmed().endsWith(path.toUtf8())) {
            start = range.split('-').value(0).toULongLong(nullptr, 16);
            break;
        }
    }
    const qint64 page = 4096;
    if (start == 0 || start % page != 0)
        return {-1, -1};
    int resident = 0, pages = 0;
    for (qint64 offset = (from + page - 1) / page * page; offset + page <= to; offset += page) {
        ++pages;
        quint64 entry = 0;
        if (!pagemap.seek(static_cast<qint64>((start + static_cast<quint64>(offset)) / page * 8))
            || pagemap.read(reinterpret_cast<char*>(&entry), 8) != 8)
            return {-1, -1};
        if (entry >> 63) // bit 63: the page is present
            ++resident;
    }
    return {resident, pages};
}

/// The bytes before the data section of fileBytes(): a's data begins there.
qint64 dataOffset()
{
    const QByteArray bytes = fileBytes();
    qint64 length = 0;
    for (int i = 0; i < 8; ++i)
        length |= static_cast<qint64>(static_cast<unsigned char>(bytes[i])) << (8 * i);
    return 8 + length;
}

} // namespace

class TestMappedSafetensors : public QObject {
    Q_OBJECT

private slots:
    void valuesOfBothDtypes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(fileBytes());
        f.close();
        const auto file = MappedSafetensors::open(path.toStdString());
        const FloatSpan a = file->floats("a");
        QVERIFY(!a.mapped);
        QCOMPARE(a.size, kValues);
        const FloatSpan b = file->floats("b");
        QVERIFY(b.mapped);
        int wrong = -1;
        for (int i = 0; i < kValues && wrong < 0; ++i) {
            if (a.data[i] != expectedBf16(i) || b.data[i] != static_cast<float>(i))
                wrong = i;
        }
        QVERIFY2(wrong < 0, qPrintable(QString("value %1 differs").arg(wrong)));
        // Widened a second time (its file pages read again after they left): the same values.
        const FloatSpan again = file->floats("a");
        QVERIFY(again.data != a.data);
        for (int i = 0; i < kValues; ++i)
            QCOMPARE(again.data[i], a.data[i]);
    }

    void widenedTensorLeavesResidentMemory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(fileBytes());
        f.close();
        const qint64 a0 = dataOffset(), a1 = a0 + 2 * kValues, b1 = a1 + 4 * kValues;
        const auto file = MappedSafetensors::open(path.toStdString());
        if (residentPages(path, a0, a1).first < 0)
            QSKIP("no /proc/self/smaps or /proc/self/pagemap here");
        const FloatSpan a = file->floats("a"); // reads all 128 KB of a's bytes
        QCOMPARE(a.data[kValues - 1], expectedBf16(kValues - 1));
        const auto [aResident, aPages] = residentPages(path, a0, a1);
        QVERIFY(aPages >= 30);
        QVERIFY2(aResident == 0, qPrintable(QString("%1 of the %2 pages of the widened tensor still resident").arg(aResident).arg(aPages)));
        // b is read in place: its pages come in as it is read, and stay.
        const FloatSpan b = file->floats("b");
        float sum = 0;
        for (int i = 0; i < kValues; ++i)
            sum += b.data[i];
        QVERIFY(sum > 0);
        const auto [bResident, bPages] = residentPages(path, a1, b1);
        QCOMPARE(bResident, bPages);
    }
};

QTEST_APPLESS_MAIN(TestMappedSafetensors)
#include "tst_mapped_safetensors.moc"
