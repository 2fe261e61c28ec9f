// The key/value cache panel under the generation stepper (issue 31 §3, issue 32 §5): the open
// decoder's bytes per token, 2 · layers · kv_heads · head_dim · 4 (float32), for the text so far
// and at the model's context, beside multi-head and multi-query attention for the same sizes;
// the model's own kind in bold; it grows as the stepper writes; BERT shows none.

#include "session/generationstepper.h"
#include "session/session.h"
#include "support/hfsession.h"
#include "views/generationpanel.h"
#include "views/kvcachepanel.h"
#include "views/predictionsview.h"

#include <QLabel>
#include <QRegularExpression>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// The table's rows as plain cells: "Multi-head|6|384 B|3.0 KiB|24.0 KiB".
QStringList rowsOf(const QLabel* table)
{
    QString html = table->text();
    QStringList rows;
    for (const QString& tr : html.split(QStringLiteral("<tr>"), Qt::SkipEmptyParts)) {
        if (!tr.contains(QStringLiteral("<td")))
            continue;
        QStringList cells;
        for (QString cell : tr.split(QRegularExpression(QStringLiteral("<td[^>]*>")), Qt::SkipEmptyParts)) {
            cell.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
            if (!cell.trimmed().isEmpty())
                cells << cell.trimmed();
        }
        rows << cells.join(QLatin1Char('|'));
    }
    return rows;
}

} // namespace

class TestKvCachePanel : public QObject {
    Q_OBJECT
private slots:
    void sizesAreReadable()
    {
        QCOMPARE(KvCachePanel::sizeText(64), QStringLiteral("64 B"));
        QCOMPARE(KvCachePanel::sizeText(1024), QStringLiteral("1.0 KiB"));
        QCOMPARE(KvCachePanel::sizeText(46080.0 * 8192), QStringLiteral("360.0 MiB")); // SmolLM2's context
    }

    // The test Llama: 2 layers, 6 query heads over 2 KV heads, head_dim 4, 64 positions. By hand:
    // grouped-query 2·2·2·4·4 = 128 B a token, multi-head 2·2·6·4·4 = 384 B, multi-query 64 B.
    void aGroupedQueryDecoderAgainstMultiHeadAndMultiQuery()
    {
        Session s;
        PredictionsView view(&s);
        view.resize(1000, 700);
        view.show();
        QVERIFY(openHfFolder(s, "llama_gqa_tied_f32", QStringLiteral("The cat sat on the mat")));
        const int n = static_cast<int>(s.trace()->tokenIds.size());
        QCOMPARE(n, 8);
        KvCachePanel* panel = view.kvCache();
        QTRY_VERIFY(panel->isVisible());
        QCOMPARE(rowsOf(panel->table()), (QStringList{QStringLiteral("Multi-head|6|384 B|3.0 KiB|24.0 KiB"),
                                                      QStringLiteral("Grouped-query (this model)|2|128 B|1.0 KiB|8.0 KiB"),
                                                      QStringLiteral("Multi-query|1|64 B|512 B|4.0 KiB")}));
        QVERIFY(panel->table()->text().contains(QStringLiteral("<b>Grouped-query")));

        // It grows with every token the stepper writes: 9 tokens, 9 · 128 B = 1.1 KiB.
        GenerationPanel* g = view.generation();
        QVERIFY(g->generate(1));
        QVERIFY(waitIdle(GenerationStepper::of(&s)));
        QTRY_COMPARE(static_cast<int>(s.trace()->tokenIds.size()), 9);
        QTRY_VERIFY(rowsOf(panel->table()).value(1).startsWith(QStringLiteral("Grouped-query (this model)|2|128 B|1.1 KiB|")));
    }

    void gpt2IsMultiHeadAndBertHasNone()
    {
        Session s;
        PredictionsView view(&s);
        view.show();
        // The test GPT-2: 2 layers, 4 heads, d 32 (head_dim 8): 2·2·4·8·4 = 512 B a token.
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The cat")));
        QTRY_VERIFY(view.kvCache()->isVisible());
        const QStringList rows = rowsOf(view.kvCache()->table());
        QCOMPARE(rows.size(), 2);
        QVERIFY2(rows[0].startsWith(QStringLiteral("Multi-head (this model)|4|512 B|")), qPrintable(rows[0]));
        QVERIFY2(rows[1].startsWith(QStringLiteral("Multi-query|1|128 B|")), qPrintable(rows[1]));

        QVERIFY(openHfFolder(s, "bert_mlm_f32", QStringLiteral("Paris is the [MASK] of France.")));
        QTRY_VERIFY(!view.kvCache()->isVisible());
    }
};

QTEST_MAIN(TestKvCachePanel)
#include "tst_kvcachepanel.moc"
