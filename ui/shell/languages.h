#pragma once
// The interface language: English (the source) or Simplified Chinese, switchable at run time.
// Installs Attention Lab's own translation and Qt's (for standard dialogs and buttons), and
// the font family list that makes Chinese use Simplified Chinese glyph shapes.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTranslator>

namespace attnlab {

class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject* parent = nullptr);

    /// Language codes offered in the menu: "en", "zh_CN".
    static QStringList available();
    /// The language's own name ("English", "简体中文").
    static QString nativeName(const QString& code);
    /// "zh_CN" when the system locale is Chinese, else "en".
    static QString systemDefault();
    /// The sentence the studio starts on when the user has none of their own: a Chinese one in
    /// Chinese (这只动物没有过马路，因为它太累了。), else the engine's kDefaultSentence.
    static QString defaultSentence(const QString& code);

    const QString& current() const { return m_current; }
    /// Installs the translators for `code`; false (and nothing changes) for an unknown code or a
    /// missing translation. Emits languageChanged; Qt sends QEvent::LanguageChange to widgets.
    bool setLanguage(const QString& code);

    /// Puts "Noto Sans CJK SC" in the application font's family list.
    static void useSimplifiedChineseGlyphs();

signals:
    void languageChanged(const QString& code);

private:
    QTranslator m_app;
    QTranslator m_qt;
    QString m_current = QStringLiteral("en");
};

} // namespace attnlab
