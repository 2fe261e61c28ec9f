#include "views/kvcachepanel.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace attnlab {

namespace {

constexpr int kFloat32Bytes = 4;

} // namespace

KvCachePanel::KvCachePanel(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_table(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title->setWordWrap(true);
    m_table->setTextFormat(Qt::RichText);
    layout->addWidget(m_title);
    layout->addWidget(m_table);
}

QString KvCachePanel::sizeText(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024.0 && unit < 4) {
        bytes /= 1024.0;
        ++unit;
    }
    return unit == 0 ? QStringLiteral("%1 B").arg(static_cast<qint64>(bytes))
                     : QStringLiteral("%1 %2").arg(bytes, 0, 'f', 1).arg(QLatin1String(units[unit]));
}

void KvCachePanel::showCache(const KvCacheShape& shape, int tokens, int positions)
{
    m_shape = shape;
    m_tokens = tokens;
    m_positions = positions;
    redraw();
}

void KvCachePanel::redraw()
{
    const KvCacheShape& s = m_shape;
    if (s.layers <= 0 || s.heads <= 0) {
        m_title->clear();
        m_table->clear();
        return;
    }
    m_title->setText(tr("Key/value cache: every token read keeps a key and a value for each K/V head of every layer, "
                        "2 \u00B7 %1 layers \u00B7 %2 K/V heads \u00B7 %3 numbers \u00B7 4 bytes (float32) = %4 per token. "
                        "Multi-head attention keeps them for every query head, grouped-query attention for each group "
                        "of query heads, multi-query attention once for all.")
                         .arg(s.layers)
                         .arg(s.kvHeads)
                         .arg(s.headDim)
                         .arg(sizeText(static_cast<double>(s.bytesPerToken(s.kvHeads, kFloat32Bytes)))));
    struct Row {
        QString name;
        int kv;
    };
    std::vector<Row> rows{{tr("Multi-head"), s.heads}};
    if (s.kvHeads > 1 && s.kvHeads < s.heads)
        rows.push_back({tr("Grouped-query"), s.kvHeads});
    if (s.heads > 1)
        rows.push_back({tr("Multi-query"), 1});
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=3><tr><th align=left>%1</th><th align=right>%2</th>"
                                  "<th align=right>%3</th><th align=right>%4</th><th align=right>%5</th></tr>")
                       .arg(tr("Attention"), tr("K/V heads"), tr("Per token"), tr("Now (%1 tokens)").arg(m_tokens),
                            tr("At %1 tokens").arg(m_positions));
    for (const Row& r : rows) {
        const bool mine = r.kv == s.kvHeads;
        const double perToken = static_cast<double>(s.bytesPerToken(r.kv, kFloat32Bytes));
        QString name = r.name.toHtmlEscaped();
        if (mine)
            name = QStringLiteral("<b>%1 %2</b>").arg(name, tr("(this model)").toHtmlEscaped());
        const auto cell = [mine](const QString& t) { return mine ? QStringLiteral("<b>%1</b>").arg(t) : t; };
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td>"
                               "<td align=right>%5</td></tr>")
                    .arg(name, cell(QString::number(r.kv)), cell(sizeText(perToken)), cell(sizeText(perToken * m_tokens)),
                         cell(sizeText(perToken * m_positions)));
    }
    html += QStringLiteral("</table>");
    m_table->setText(html);
}

void KvCachePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        redraw();
}

} // namespace attnlab
