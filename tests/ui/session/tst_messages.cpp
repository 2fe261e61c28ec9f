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
            messages::allKeysMasked(Block::Cross, 1, 0, "<sos>")};
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
        // An unknown code falls back to the engine's English text.
        QCOMPARE(messageText(Message{"new_code", {}, "something new"}), QStringLiteral("something new"));
        languages.setLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestMessages)
#include "tst_messages.moc"
