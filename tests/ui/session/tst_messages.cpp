// The engine's messages in the interface's language: the English the interface writes from a
// message's code and arguments is the engine's own text, word for word, for every message; the
// Chinese interface writes them in Chinese.

#include "io/fileio.h"
#include "io/messages.h"
#include "session/messages.h"
#include "shell/languages.h"

#include <QtTest>

using namespace attnlab;

namespace {

std::vector<Message> everyMessage()
{
    return {messages::invalidUtf8(),
            messages::tokensCut(20, 10),
            messages::nothingPadded(9, 4),
            messages::sideCut("target", 30, 12),
            messages::notInVocabulary("é", "source"),
            messages::allKeysMasked(Block::None, std::nullopt, 2, "狗"),
            messages::allKeysMasked(Block::Cross, 1, 0, "<sos>"),
            messages::noTokens("sentence"),
            messages::noTokens("source"),
            messages::tooManyCells(3000, 4, 16777216),
            messages::tooManyLayerCells(20000000, 16777216),
            messages::weightsWidth(32, 16),
            messages::noMaskMatrix(),
            messages::maskSize(3, 3, 10),
            messages::noOutputHead(),
            messages::targetWithoutDecoder(),
            messages::sessionNotJson("line 1, column 2: syntax error"),
            messages::sessionJsonLimits(32, 2000000),
            messages::sessionFormat(),
            messages::sessionVersion("2"),
            messages::sessionMissing("sentence"),
            messages::sessionType("head", "integer"),
            messages::sessionType("target", "string_or_null"),
            messages::sessionType("custom_mask", "mask_rows"),
            messages::sessionMaskNotSquare(),
            messages::sessionMaskSize(1025, 1024),
            messages::sessionLessonPlace(),
            messages::globalOutOfRange(40, 13),
            messages::performerPrecision(Block::None, std::nullopt, 3.5e12),
            messages::performerPrecision(Block::EncoderSelf, 2, 1e15)};
}

} // namespace

class TestMessages : public QObject {
    Q_OBJECT
private slots:
    void sentencesJoinAsEachLanguageWrites()
    {
        QCOMPARE(appendSentence(QStringLiteral("Measured."), QStringLiteral("Median of 3.")), QStringLiteral("Measured. Median of 3."));
        QCOMPARE(appendSentence(QStringLiteral("\u5DF2\u6D4B\u3002"), QStringLiteral("\u4E2D\u4F4D\u6570\u3002")),
                 QStringLiteral("\u5DF2\u6D4B\u3002\u4E2D\u4F4D\u6570\u3002")); // 已测。中位数。
        QCOMPARE(appendSentence(QStringLiteral("\u65F6\u95F4\uFF1A"), QStringLiteral("1 s")), QStringLiteral("\u65F6\u95F4\uFF1A1 s"));
        QCOMPARE(appendSentence(QString(), QStringLiteral("B.")), QStringLiteral("B."));
        QCOMPARE(appendSentence(QStringLiteral("A."), QString()), QStringLiteral("A."));
    }

    void englishIsTheEnginesText()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        for (const Message& m : everyMessage())
            QCOMPARE(messageText(m), QString::fromStdString(m.text));
        // The studio does not mention the command line's option.
        QCOMPARE(messageText(messages::noModelFile()), QStringLiteral("no model file is open: open one first (File \u2192 Open model\u2026)"));
    }

    void errorsCarryTheirMessage()
    {
        const Error e(messages::maskSize(2, 2, 5));
        QCOMPARE(QString::fromUtf8(e.what()), QString::fromStdString(e.message().text));
        QCOMPARE(QString::fromStdString(e.message().code), QStringLiteral("mask_size"));
        const std::invalid_argument& asInvalid = e; // callers that only print keep working
        QVERIFY(std::string(asInvalid.what()).find("5 x 5") != std::string::npos);
    }

    void chineseIsTranslated()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(messageText(messages::tokensCut(20, 10)), QStringLiteral("句子有 20 个词元，只使用前 10 个（max_tokens）"));
        QCOMPARE(messageText(messages::allKeysMasked(Block::Cross, 1, 0, "<sos>")),
                 QStringLiteral("第 1 层的交叉注意力：查询 0（“<sos>”）的所有键都被遮蔽：它的注意力权重全为 0"));
        for (const Message& m : everyMessage()) {
            const QString text = messageText(m);
            QVERIFY2(text != QString::fromStdString(m.text), qPrintable(text)); // every one has a translation
        }
        QCOMPARE(messageText(messages::maskSize(3, 3, 10)), QStringLiteral("自定义掩码是 3 × 3，但句子有 10 个词元：它必须是 10 × 10"));
        QCOMPARE(messageText(messages::performerPrecision(Block::None, std::nullopt, 3.5e12)),
                 QStringLiteral("Performer 特征的指数达到 3.5e+12，在这个量级上 double 的精度只有 0.00049：它的权重和输出只是近似值（查询和键非常大）"));
        QCOMPARE(messageText(messages::noModelFile()), QStringLiteral("尚未打开模型文件：请先打开一个（文件 \u2192 打开模型\u2026）"));
        // An unknown code falls back to the engine's English text.
        QCOMPARE(messageText(Message{"new_code", {}, "something new"}), QStringLiteral("something new"));
        languages.setLanguage(QStringLiteral("en"));
    }

    void everyLineOfTheTablesIsInChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
        const auto placeholders = [&](const QString& text) {
            QStringList found;
            for (auto it = placeholder.globalMatch(text); it.hasNext();)
                found << it.next().captured();
            found.sort();
            return found;
        };
        for (const MessageTemplate* t : messageTemplates()) {
            const QString english = QString::fromUtf8(t->text);
            const QString chinese = QCoreApplication::translate("attnlab::Messages", t->text);
            QVERIFY2(chinese != english || !english.contains(QRegularExpression(QStringLiteral("[a-z]{3}"))), t->text);
            QCOMPARE(placeholders(chinese), placeholders(english)); // every argument shown, none invented
        }
        // A table's message with a reason: both translated, joined with a full-width colon.
        const Message inner = say(ioMessage("safetensors_header_object"));
        QCOMPARE(messageText(sayAbout(ioMessage("in_file"), inner, std::string("/m/a.safetensors"))),
                 QStringLiteral("\u201C/m/a.safetensors\u201D\uFF1Asafetensors \u5934\u90E8\u4E0D\u662F JSON \u5BF9\u8C61"));
        languages.setLanguage(QStringLiteral("en"));
        QCOMPARE(messageText(sayAbout(ioMessage("in_file"), inner, std::string("/m/a.safetensors"))),
                 QStringLiteral("'/m/a.safetensors': safetensors header is not a JSON object"));
    }

    void writeFailuresInBothLanguages()
    {
        const std::vector<Message> failures{
            messages::cannotWrite("/x/a.png", "no_folder", "/x", "No such file or directory"),
            messages::cannotWrite("/dev/null/a.csv", "not_a_folder", "/dev/null", "Not a directory"),
            messages::cannotWrite("/mnt/a.pdf", "read_only", "/mnt", "Read-only file system"),
            messages::cannotWrite("/root/a.json", "no_permission", "/root", "Permission denied"),
            messages::cannotWrite("/tmp/m.safetensors", "disk_full", "/tmp", "No space left on device"),
            messages::cannotWrite("/tmp", "is_folder", "/tmp", ""),
            messages::cannotWrite("/tmp/a.json", "in_the_way", "/tmp/a.json.part", "Is a directory"),
            messages::cannotWrite("/tmp/a.json", "other", "/tmp", "Input/output error")};
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        for (const Message& m : failures)
            QCOMPARE(messageText(m), QString::fromStdString(m.text));
        QCOMPARE(messageText(failures[0]), QStringLiteral("cannot write '/x/a.png': No such file or directory (the folder '/x' does not exist)"));
        // errorText finds the message inside the exceptions that carry one.
        QCOMPARE(errorText(FileError(failures[1])), QString::fromStdString(failures[1].text));
        QCOMPARE(errorText(std::runtime_error("plain")), QStringLiteral("plain"));

        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        for (const Message& m : failures) {
            if (m.args[1] != "other") // the system's own words only
                QVERIFY2(messageText(m) != QString::fromStdString(m.text), qPrintable(messageText(m)));
        }
        QCOMPARE(messageText(failures[0]), QStringLiteral("无法写入“/x/a.png”：文件夹“/x”不存在（No such file or directory）"));
        QCOMPARE(errorText(FileError(failures[4])),
                 QStringLiteral("无法写入“/tmp/m.safetensors”：磁盘已满；同名的原有文件未被改动（No space left on device）"));
        QCOMPARE(errorText(Error(messages::maskSize(3, 3, 10))), QStringLiteral("自定义掩码是 3 × 3，但句子有 10 个词元：它必须是 10 × 10"));
        languages.setLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestMessages)
#include "tst_messages.moc"
