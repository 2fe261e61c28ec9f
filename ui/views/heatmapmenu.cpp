#include "views/heatmapmenu.h"

#include "views/heatmapview.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QMenu>

#include <cmath>

namespace attnlab {

HeatmapMenu::HeatmapMenu(QWidget* window, std::function<void()> exportView)
    : QObject(window)
    , m_window(window)
    , m_exportView(std::move(exportView))
{
    // Heatmaps come and go with the steps (the all-heads grid makes one per head): watching the
    // application's context-menu events reaches every one inside the window.
    qApp->installEventFilter(this);
}

HeatmapMenu::~HeatmapMenu()
{
    qApp->removeEventFilter(this);
}

QString HeatmapMenu::cellText(const HeatmapView& view, int row, int column)
{
    const LabeledMatrix& m = view.matrix();
    if (row < 0 || column < 0 || row >= m.values.rows() || column >= m.values.cols())
        return {};
    const auto label = [](const Labels& labels, int i) {
        return labels && i < static_cast<int>(labels->size()) ? QString::fromStdString((*labels)[static_cast<std::size_t>(i)]) : QString();
    };
    const float x = m.values(row, column);
    const QString value = std::isfinite(x) ? QString::number(static_cast<double>(x), 'g', 7)
        : std::isnan(x)                    ? QStringLiteral("nan")
        : x < 0                            ? QStringLiteral("\u2212\u221E")
                                           : QStringLiteral("\u221E");
    const QString rowLabel = label(m.rowLabels, row);
    const QString colLabel = label(m.colLabels, column);
    // Rows and columns counted from 1, as people count them (the JSON files count from 0).
    const QString where = rowLabel.isEmpty() || colLabel.isEmpty()
        ? tr("row %1, column %2").arg(row + 1).arg(column + 1)
        : tr("row %1 \u201C%2\u201D, column %3 \u201C%4\u201D").arg(row + 1).arg(rowLabel).arg(column + 1).arg(colLabel);
    const QString name = QString::fromStdString(m.name);
    return name.isEmpty() ? tr("%1 (%2)").arg(value, where) : tr("%1 = %2 (%3)").arg(name, value, where);
}

QMenu* HeatmapMenu::popup(HeatmapView* view, const QPoint& pos, const QPoint& global)
{
    delete m_menu;
    m_menu = new QMenu(view);
    m_menu->setAttribute(Qt::WA_DeleteOnClose);
    m_menu->setToolTipsVisible(true); // Copy value shows the value it copies
    QPointer<HeatmapView> target(view);
    m_menu->addAction(tr("Copy &image"), this, [target] {
        if (target)
            QApplication::clipboard()->setPixmap(target->plot()->toPixmap());
    });
    const QPoint cell = view->cellAt(pos);
    const QString value = cellText(*view, cell.x(), cell.y());
    QAction* copyValue = m_menu->addAction(tr("Copy &value"), this, [value] { QApplication::clipboard()->setText(value); });
    copyValue->setEnabled(!value.isEmpty()); // a click beside the cells has no value
    if (!value.isEmpty())
        copyValue->setToolTip(value);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Export\u2026"), this, [this] {
        if (m_exportView)
            m_exportView();
    });
    m_menu->popup(global);
    return m_menu;
}

bool HeatmapMenu::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ContextMenu)
        return false;
    auto* plot = qobject_cast<QCustomPlot*>(watched);
    if (!plot || plot->window() != m_window)
        return false;
    HeatmapView* view = nullptr;
    for (QObject* p = plot->parent(); p && !view; p = p->parent())
        view = qobject_cast<HeatmapView*>(p);
    if (!view || view->plot() != plot)
        return false;
    auto* menuEvent = static_cast<QContextMenuEvent*>(event);
    popup(view, menuEvent->pos(), menuEvent->globalPos());
    return true;
}

} // namespace attnlab
