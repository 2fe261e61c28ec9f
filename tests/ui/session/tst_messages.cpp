// The engine's messages in the interface's language: the English the interface writes from a
// message's code and arguments is the engine's own text, word for word, for every message; the
// Chinese interface writes them in Chinese.

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
            messages::targetWithoutDecoder()};
}

} // namespace

class TestMessages : public QObject {
    Q_OBJECT
private slots:
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
        QCOMPARE(messageText(messages::noModelFile()), QStringLiteral("尚未打开模型文件：请先打开一个（文件 \u2192 打开模型\u2026）"));
        // An unknown code falls back to the engine's English text.
        QCOMPARE(messageText(Message{"new_code", {}, "something new"}), QStringLiteral("something new"));
        languages.setLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestMessages)
#include "tst_messages.moc"
