// The Session's second input B (issue 10 §2): computed with A, projected to the same layer and
// block, failing on its own without touching A; kept by session files and the autosave (an older
// file without it opens as before, a broken one is refused and changes nothing); set by lessons.

#include "session/autosave.h"
#include "session/session.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

namespace {

void small(Session& s, const QString& sentence = QStringLiteral("狗咬了人"))
{
    Config c = s.config();
    c.dModel = 8;
    c.heads = 2;
    s.setConfig(c);
    s.setSentence(sentence);
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

void writeJson(const QString& path, const QJsonObject& o)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(o).toJson());
}

} // namespace

class TestSessionCompare : public QObject {
    Q_OBJECT
private slots:
    void bComesWithA()
    {
        Session s;
        small(s);
        QVERIFY(!s.isComparing());
        QVERIFY(!s.comparisonTrace());
        QSignalSpy changed(&s, &Session::comparisonChanged);
        s.setComparing(true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("人咬了狗"));
        QVERIFY(s.comparisonTrace());
        QCOMPARE(s.comparisonTrace()->tokens, (std::vector<std::string>{"人", "咬", "了", "狗"}));
        // A new sentence: B is computed before the views hear of the new A.
        QSignalSpy traces(&s, &Session::traceChanged);
        connect(&s, &Session::traceChanged, this, [&s] { QCOMPARE(s.comparisonTrace()->config.seed, s.trace()->config.seed); });
        Config c = s.config();
        c.seed = 5;
        s.setConfig(c);
        QCOMPARE(traces.count(), 1);
        QCOMPARE(s.comparisonTrace()->config.seed, std::uint64_t(5));
        // Off: no B; on again: the same B.
        s.setComparing(false);
        QVERIFY(!s.comparisonTrace());
        s.setComparing(true);
        QCOMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("人咬了狗"));
    }

    // Issue 28 §2: editing A while Compare is open updates a B derived from A.
    void bDerivedFromAFollowsIt()
    {
        Session s;
        small(s);
        s.setComparing(true);
        QCOMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("人咬了狗"));
        QSignalSpy changed(&s, &Session::comparisonChanged);
        s.setSentence(QStringLiteral("猫追了狗"));
        QCOMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("狗追了猫"));
        QVERIFY(changed.count() >= 1); // the bar shows B's new text
        QCOMPARE(s.comparisonTrace()->tokens, (std::vector<std::string>{"狗", "追", "了", "猫"}));
        // A sentence the user typed for B stays whatever A becomes.
        Comparison typed;
        typed.sentence = "鸟飞了";
        s.setComparison(typed);
        s.setSentence(QStringLiteral("人咬了狗"));
        QCOMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("鸟飞了"));
        // The same sentence under another setting is A's text, whatever it is.
        Comparison pe;
        pe.kind = CompareKind::Positional;
        pe.positional = PositionalEncoding::None;
        s.setComparison(pe);
        s.setSentence(QStringLiteral("狗咬了人"));
        QCOMPARE(s.comparisonTrace()->tokens, (std::vector<std::string>{"狗", "咬", "了", "人"}));
    }

    void bFailsAlone()
    {
        Session s;
        small(s);
        s.setComparing(true);
        Comparison c;
        c.sentence = "   ";
        s.setComparison(c);
        QVERIFY(s.error().isEmpty());
        QVERIFY(s.comparisonError().contains(QStringLiteral("no tokens")));
        QVERIFY(!s.comparisonTrace());
        QVERIFY(s.trace());
        // A mask comparison with a model: masks are compared on one attention block.
        Config m = s.config();
        m.model = ModelKind::Seeded;
        m.setLayers(1);
        s.setConfig(m);
        Comparison mask;
        mask.kind = CompareKind::Mask;
        s.setComparison(mask);
        QVERIFY(s.isModel());
        QVERIFY(s.comparisonError().contains(QStringLiteral("masks are compared on one attention block only")));
    }

    void aTransformersBFollowsTheStep()
    {
        Session s;
        Config c = s.config();
        c.dModel = 8;
        c.heads = 2;
        c.model = ModelKind::Seeded;
        c.setLayers(1);
        s.setConfig(c);
        s.setSentence(QStringLiteral("狗咬了人"));
        s.setComparing(true);
        QVERIFY(s.isModel());
        const int cross = s.stepIndex(QStringLiteral("weights"), 0, Block::Cross);
        QVERIFY(cross >= 0);
        s.setStep(cross);
        QVERIFY(s.comparisonTrace());
        QVERIFY(s.comparisonTrace()->scopeBlock == Block::Cross);
        QCOMPARE(s.comparisonTrace()->scopeLayer, std::optional<int>(0));
        const Stage* b = s.comparisonTrace()->find("weights", 0);
        QVERIFY(b);
        // Cross-attention's keys are B's source: 人咬了狗.
        QCOMPARE((*b->main().colLabels)[0], std::string("人"));
    }

    void sessionFilesKeepTheComparison()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.attnlab.json"));
        Session s;
        small(s);
        s.setComparing(true);
        Comparison pe;
        pe.kind = CompareKind::Positional;
        pe.positional = PositionalEncoding::Learned;
        s.setComparison(pe);
        QString error;
        QVERIFY2(s.saveSession(path, &error), qPrintable(error));
        const QJsonObject j = readJson(path);
        QCOMPARE(j.value("comparison").toObject().value("on").toBool(), true);
        QCOMPARE(j.value("comparison").toObject().value("b").toString(), QStringLiteral("pe=learned"));

        Session t;
        small(t, QStringLiteral("other"));
        QSignalSpy changed(&t, &Session::comparisonChanged);
        QVERIFY2(t.loadSession(path, &error), qPrintable(error));
        QVERIFY(t.isComparing());
        QVERIFY(t.comparison() == pe);
        QVERIFY(t.comparisonTrace());
        QCOMPARE(changed.count(), 1);

        // Off, but B kept.
        s.setComparing(false);
        QVERIFY(s.saveSession(path, &error));
        QVERIFY(t.loadSession(path, &error));
        QVERIFY(!t.isComparing());
        QVERIFY(t.comparison() == pe);

        // A file written before comparisons opens as before, comparison off.
        QJsonObject old = readJson(path);
        old.remove(QStringLiteral("comparison"));
        writeJson(path, old);
        t.setComparing(true);
        QVERIFY2(t.loadSession(path, &error), qPrintable(error));
        QVERIFY(!t.isComparing());

        // A broken B refuses the file and changes nothing.
        QJsonObject broken = old;
        broken.insert(QStringLiteral("comparison"), QJsonObject{{"on", true}, {"b", "pe=sine"}});
        writeJson(path, broken);
        t.setComparing(true);
        const Comparison before = t.comparison();
        QVERIFY(!t.loadSession(path, &error));
        QVERIFY2(error.contains(QStringLiteral("pe: 'sine'")), qPrintable(error));
        QVERIFY(t.isComparing());
        QVERIFY(t.comparison() == before);
    }

    void theAutosaveNotesAComparison()
    {
        QTemporaryDir dir;
        Session s;
        small(s);
        Autosave a(&s, dir.path());
        QVERIFY(!a.isPending());
        s.setComparing(true);
        QVERIFY(a.isPending());
        QString error;
        QVERIFY2(a.saveNow(&error), qPrintable(error));
        QVERIFY(!a.isPending());
        Comparison seed;
        seed.kind = CompareKind::Seed;
        s.setComparison(seed);
        QVERIFY(a.isPending());
    }

    void lessonsSetIt()
    {
        Session s;
        small(s);
        LessonStep step;
        step.config = s.config();
        step.stage = "weights";
        step.compare = parseComparison("人咬了狗");
        QSignalSpy changed(&s, &Session::comparisonChanged);
        s.applyLessonStep(step);
        QVERIFY(s.isComparing());
        QVERIFY(s.comparisonTrace());
        QVERIFY(changed.count() >= 1);
        // The next step compares another seed: no new input, B alone recomputed.
        step.compare = parseComparison("seed=9");
        s.applyLessonStep(step);
        QCOMPARE(s.comparisonTrace()->config.seed, std::uint64_t(9));
        // A step without `compare`: comparison off.
        step.compare.reset();
        s.applyLessonStep(step);
        QVERIFY(!s.isComparing());
        QVERIFY(!s.comparisonTrace());
    }
};

QTEST_MAIN(TestSessionCompare)
#include "tst_session_compare.moc"
