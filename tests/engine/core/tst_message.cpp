// The message tables (core/message.h): the English text a line makes with its arguments, the
// one-pass filling, the wrapped reason, and the tables' own rules (codes unique, placeholders
// counted from %1 without gaps).

#include "core/message.h"
#include "io/messages.h"
#include "io/safetensors.h"

#include <QtTest>

#include <regex>
#include <set>

using namespace attnlab;

namespace {

constexpr MessageTemplate kTestTable[] = {
    {"two", "from %1 to %2"},
    {"percent", "%1%% done"},
};

} // namespace

class TestMessage : public QObject {
    Q_OBJECT

private slots:
    void aLineFillsItsArguments()
    {
        const Message m = say(messageIn(kTestTable, "two"), std::string("a"), 3);
        QCOMPARE(m.code, std::string("two"));
        QCOMPARE(m.args, (std::vector<std::string>{"a", "3"}));
        QCOMPARE(m.text, std::string("from a to 3"));
        QCOMPARE(say(messageIn(kTestTable, "percent"), 40).text, std::string("40% done"));
    }

    void fillingIsOnePass()
    {
        // An argument that itself holds "%2" (a user's text) is not filled again.
        QCOMPARE(fillTemplate("from %1 to %2", {"%2", "b"}), std::string("from %2 to b"));
        QCOMPARE(fillTemplate("%1 %9", {"x"}), std::string("x "));
        QCOMPARE(fillTemplate("100%", {}), std::string("100%"));
    }

    void numbersAreWrittenShortest()
    {
        QCOMPARE(detail::messageArg(0.1), std::string("0.1"));
        QCOMPARE(detail::messageArg(3.5e12), std::string("3.5e+12"));
        QCOMPARE(detail::messageArg(-2.0), std::string("-2"));
        QCOMPARE(detail::messageArg(std::uint64_t{18446744073709551615ULL}), std::string("18446744073709551615"));
    }

    void aReasonFollowsItsMessage()
    {
        const Message inner = say(ioMessage("safetensors_header_object"));
        const Message outer = sayAbout(ioMessage("in_file"), inner, std::string("/m/model.safetensors"));
        QCOMPARE(outer.text, std::string("'/m/model.safetensors': safetensors header is not a JSON object"));
        QCOMPARE(outer.reasons.size(), std::size_t{1});
        QCOMPARE(outer.reasons.front(), inner);
    }

    void formatErrorsCarryTheirMessage()
    {
        try {
            parseSafetensors(std::string("\x05\0\0\0\0\0\0\0{}", 10));
            QFAIL("a 5-byte header with 2 bytes after it is no safetensors file");
        } catch (const FormatError& e) {
            QCOMPARE(e.message().code, std::string("safetensors_truncated_header"));
            QCOMPARE(std::string(e.what()), e.message().text);
        }
    }

    void theTablesKeepTheirRules()
    {
        std::set<std::string_view> codes;
        const std::regex placeholder("%([1-9])");
        QVERIFY(messageTemplates().size() > 10);
        for (const MessageTemplate* t : messageTemplates()) {
            QVERIFY2(codes.insert(t->code).second, std::string(t->code).c_str()); // unique across the tables
            QVERIFY(findMessageTemplate(t->code) == t);
            // %1 … %n, each at least once, none skipped: the arguments are counted from the text.
            std::set<int> used;
            const std::string text = t->text;
            for (auto it = std::sregex_iterator(text.begin(), text.end(), placeholder); it != std::sregex_iterator(); ++it)
                used.insert(std::stoi((*it)[1]));
            QVERIFY2(used.empty() || (*used.begin() == 1 && *used.rbegin() == static_cast<int>(used.size())), t->text);
        }
        QVERIFY(findMessageTemplate("no such code") == nullptr);
    }
};

QTEST_APPLESS_MAIN(TestMessage)
#include "tst_message.moc"
