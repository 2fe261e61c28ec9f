#include "shell/languages.h"

#include "core/config.h"

#include <QApplication>
#include <QFont>
#include <QFontInfo>
#include <QLibraryInfo>
#include <QLocale>

namespace attnlab {

LanguageManager::LanguageManager(QObject* parent)
    : QObject(parent)
{
}

QStringList LanguageManager::available()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString LanguageManager::nativeName(const QString& code)
{
    if (code == u"zh_CN")
        return QStringLiteral("\u7B80\u4F53\u4E2D\u6587"); // 简体中文
    return QStringLiteral("English");
}

QString LanguageManager::systemDefault()
{
    return QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString LanguageManager::defaultSentence(const QString& code)
{
    // The Chinese twin of the English sentence: a pronoun whose noun the reader has to find.
    if (code.startsWith(QStringLiteral("zh")))
        return QStringLiteral("\u8FD9\u53EA\u52A8\u7269\u6CA1\u6709\u8FC7\u9A6C\u8DEF\uFF0C\u56E0\u4E3A\u5B83\u592A\u7D2F\u4E86\u3002"); // 这只动物没有过马路，因为它太累了。
    return QString::fromUtf8(kDefaultSentence);
}

bool LanguageManager::setLanguage(const QString& code)
{
    if (!available().contains(code))
        return false;
    if (code == m_current)
        return true;
    QCoreApplication::removeTranslator(&m_app);
    QCoreApplication::removeTranslator(&m_qt);
    if (code != u"en") {
        if (!m_app.load(QStringLiteral(":/i18n/attentionlab_%1.qm").arg(code))) {
            // Stay in the language we had rather than half-translate.
            if (m_current != u"en") {
                (void)m_app.load(QStringLiteral(":/i18n/attentionlab_%1.qm").arg(m_current));
                QCoreApplication::installTranslator(&m_app);
                QCoreApplication::installTranslator(&m_qt);
            }
            return false;
        }
        // Qt's own strings (OK, Cancel, file dialogs); optional.
        if (m_qt.load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
        QCoreApplication::installTranslator(&m_app);
    }
    m_current = code;
    QLocale::setDefault(QLocale(code == u"en" ? QStringLiteral("en_US") : code));
    emit languageChanged(code);
    return true;
}

void LanguageManager::useSimplifiedChineseGlyphs()
{
    // With only the C locale, fontconfig's fallback picks Japanese glyph shapes for Han
    // characters; naming the Simplified Chinese face first among the fallbacks fixes that.
    QFont font = QApplication::font();
    const QString primary = QFontInfo(font).family();
    font.setFamilies({primary, QStringLiteral("Noto Sans CJK SC")});
    QApplication::setFont(font);
}

} // namespace attnlab
