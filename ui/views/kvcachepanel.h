#pragma once
// What generation keeps in memory (issue 31 §3, issue 32 §5), under the generation stepper: for
// the open decoder, the key/value cache's bytes per token and for the text so far — 2 · layers ·
// KV heads · head_dim · 4 bytes (float32, as the studio keeps them) — beside what multi-head
// attention (a key and a value per query head) and multi-query attention (one for all) would keep
// for the same sizes. The model's own kind is in bold. It grows as the stepper writes.

#include "pretrained/kv_cache_size.h"

#include <QWidget>

class QLabel;

namespace attnlab {

class KvCachePanel : public QWidget {
    Q_OBJECT
public:
    explicit KvCachePanel(QWidget* parent = nullptr);

    /// Shows the cache of `shape` for `tokens` tokens and for the model's `positions`.
    void showCache(const KvCacheShape& shape, int tokens, int positions);
    /// The table (rich text).
    QLabel* table() const { return m_table; }

    /// "45.0 KiB": `bytes` in the largest binary unit that keeps a number of at least 1.
    static QString sizeText(double bytes);

protected:
    void changeEvent(QEvent* event) override;

private:
    void redraw();

    QLabel* m_title;
    QLabel* m_table;
    KvCacheShape m_shape;
    int m_tokens = 0;
    int m_positions = 0;
};

} // namespace attnlab
