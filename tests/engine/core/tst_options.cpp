// The options table (core/options.h): each line's names agree with each other, its defaults are
// valid and said in the help, its range is the one validation enforces, and config JSON and
// lesson settings set the member it names.

#include "core/options.h"
#include "io/config_json.h"
#include "lesson/lesson.h"

#include <QtTest>

#include <set>
#include <type_traits>

using namespace attnlab;

namespace {

/// A Config whose kind or scheme reads the option.
Config readingIt(const OptionInfo& o)
{
    Config c;
    if (isKindOption(o))
        c.attention = o.kinds.front();
    else
        c.positional = *o.scheme;
    return c;
}

/// Sets the option to v (a list: to {v}).
void set(const OptionInfo& o, Config& c, double v)
{
    visitOption(o, c, [&](auto& member) {
        using T = std::decay_t<decltype(member)>;
        if constexpr (std::is_same_v<T, std::vector<int>>)
            member = {static_cast<int>(v)};
        else
            member = static_cast<T>(v);
    });
}

std::string text(double v, const OptionInfo& o)
{
    return o.member.index() == 3 ? detail::shortNumber(v) : std::to_string(static_cast<long long>(v));
}

} // namespace

class TestOptions : public QObject {
    Q_OBJECT
private slots:
    void namesAgree()
    {
        std::set<std::string_view> keys, flags;
        for (const OptionInfo& o : options()) {
            QVERIFY2(keys.insert(o.key).second && flags.insert(o.flag).second, std::string(o.key).c_str());
            std::string flag = "--" + std::string(o.key);
            std::replace(flag.begin(), flag.end(), '_', '-');
            QCOMPARE(std::string(o.flag), flag);
            QVERIFY(isKindOption(o) != o.scheme.has_value()); // one owner: kinds, or a scheme
            QVERIFY(optionByKey(o.key) == &o && optionByFlag(o.flag) == &o);
            QVERIFY(!o.metavar.empty() && !o.help.empty());
            if (!o.negativeMeans.empty())
                QVERIFY(optionByKey(o.negativeMeans));
        }
        QVERIFY(!optionByKey("window_size") && !optionByFlag("--window_size"));
    }

    /// The defaults are valid and the help says them; min and max are the edges validation keeps.
    void rangesAreValidations()
    {
        for (const OptionInfo& o : options()) {
            const std::string key(o.key);
            Config c = readingIt(o);
            QVERIFY2(c.problems().empty(), key.c_str());
            visitOption(o, c, [&](const auto& v) {
                if constexpr (std::is_same_v<std::decay_t<decltype(v)>, int>) {
                    // "(default 4)" or "(default 0: none)"; "(default: …)" says it in words.
                    const std::string said = "(default " + std::to_string(v);
                    const std::size_t at = o.help.find(said);
                    const bool inWords = o.help.find("(default:") != std::string_view::npos;
                    QVERIFY2(inWords || (at != std::string_view::npos && !std::isdigit(o.help[at + said.size()])), key.c_str());
                }
            });
            const double inside[] = {o.minExcluded ? o.min + 1 : o.min, o.max};
            for (const double v : inside) {
                if (o.even && std::fmod(v, 2) != 0)
                    continue;
                set(o, c, v);
                QVERIFY2(c.problems().empty(), (key + " = " + text(v, o)).c_str());
            }
            const double outside[] = {o.minExcluded ? o.min : o.min - 1, o.max + (o.member.index() == 3 ? o.max : 1)};
            for (const double v : outside) {
                set(o, c, v);
                const auto p = c.problems();
                QVERIFY2(p.size() == 1 && p[0].find(text(v, o)) != std::string::npos, (key + " = " + text(v, o)).c_str());
                QVERIFY2(p[0].rfind(key, 0) == 0 || (key == "global" && p[0].rfind("global position", 0) == 0), p[0].c_str());
            }
        }
    }

    /// A value set through config JSON, and through a lesson's settings, lands in the option's member.
    void jsonAndLessonsSetTheMember()
    {
        for (const OptionInfo& o : options()) {
            const std::string key(o.key);
            Config c = readingIt(o);
            const double v = o.even ? 6 : o.member.index() == 3 ? 500 : std::max(o.min, 0.0) + 3;
            set(o, c, v);
            Config written = c; // a file is written xl's memory in use (L when it is −1)
            written.positionOptions.memory = c.positional == PositionalEncoding::Xl ? c.positionOptions.xlMemory() : c.positionOptions.memory;
            QVERIFY2(configFromJson(nlohmann::json::parse(configToJson(c).dump())) == written, key.c_str());
            Config fromLesson = applySettings(readingIt(o), key + "=" + text(v, o));
            QVERIFY2(fromLesson == c, key.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestOptions)
#include "tst_options.moc"
