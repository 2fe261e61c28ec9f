#pragma once
// Choices of a combo box that cannot be combined with the rest of the settings (issue 28 §3):
// greyed, with a tooltip saying why, rather than accepted and then refused in internal words.

#include <QComboBox>
#include <QStandardItemModel>
#include <QString>

namespace attnlab {

/// Enables item `index` of `box`, or greys it out with `why` as its tooltip.
inline void allowComboItem(QComboBox* box, int index, bool allowed, const QString& why)
{
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    QStandardItem* item = model ? model->item(index) : nullptr;
    if (!item)
        return;
    item->setEnabled(allowed);
    item->setToolTip(allowed ? QString() : why);
}

} // namespace attnlab
