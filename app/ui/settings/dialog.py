"""Settings: model and engine (with why), context, thinking, folders, hotkey, look, privacy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QListWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.file_actions import start_folder
from app.ui.i18n import LANGUAGES, Retranslator
from app.ui.settings.connect import ConnectPage
from app.ui.settings.generation import GenerationTab
from app.ui.settings.mcp_servers import McpServersPage
from app.ui.settings.memory import MemoryTab
from app.ui.settings.privacy import PrivacyTab
from app.ui.settings.skills import SkillsTab
from app.ui.settings.speed import SpeedTab
from app.ui.shell.autostart import platform_autostart
from app.ui.shell.hotkey import default_hotkey
from app.ui.widgets import add_tabs, button, choice, dim_label, follow_selection, hbox, spin_box
from backends.engines import AUTO, CHOICES, Engine, display_name
from backends.select import EngineChoice
from skills.office.access import default_output_folder


class FolderList(QWidget):
    """A list of folders with Add and Remove."""

    def __init__(self, folders: list[str], title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title = title
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setAccessibleName(title)
        self.list.addItems(folders)
        self.list.setMaximumHeight(110)
        column.addWidget(self.list)
        self.remove_button = button(
            self.tr("Remove"), self._remove,
            self.tr("Remove the selected folder from %1").replace("%1", title))
        column.addLayout(hbox(
            button(self.tr("Add…"), self._add,
                   self.tr("Add a folder to %1").replace("%1", title)),
            self.remove_button, None))
        follow_selection(self.list, self.remove_button)

    def folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def add(self, folder: str) -> None:
        if folder and folder not in self.folders():
            self.list.addItem(folder)

    def _add(self) -> None:
        self.add(QFileDialog.getExistingDirectory(self, self._title, start_folder()))

    def _remove(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))


class OutputFolder(QWidget):
    """One folder with Choose… and Default; "" stands for the default, which is shown."""

    def __init__(self, folder: str, default: str, title: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title, self._default, self._folder = title, default, folder
        self.path = QLineEdit(readOnly=True)
        self.path.setAccessibleName(title)
        self.reset = button(self.tr("Default"), lambda: self.set_folder(""),
                            self.tr("Use the default for %1").replace("%1", title))
        self.setLayout(hbox((self.path, 1), button(self.tr("Choose…"), self._choose,
                                                  self.tr("Choose %1").replace("%1", title)),
                           self.reset, margins=False))
        self.set_folder(folder)

    def folder(self) -> str:
        return self._folder

    def set_folder(self, folder: str) -> None:
        self._folder = "" if folder == self._default else folder
        self.path.setText(self._folder or self._default)
        self.reset.setEnabled(bool(self._folder))

    def _choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self._title,
                                                  self._folder or start_folder())
        if chosen:
            self.set_folder(chosen)


class SettingsDialog(QDialog):
    """Edits a copy of the settings; Save writes them (off the GUI thread) and applies them."""

    saved = Signal(set)  # names of the fields that changed
    open_models = Signal()
    test_notification = Signal()

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.settings = ctx.hearth.settings
        self._login_item = platform_autostart()
        self._tr = Retranslator(self)
        self._tr(lambda: self.setWindowTitle(self.tr("Settings — Hearth")))
        self.setObjectName("settingsDialog")
        self.resize(620, 560)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 16, 18, 14)
        self.tabs = QTabWidget()
        self.mcp = McpServersPage(list(self.settings.mcp_servers))
        self.generation = GenerationTab(self.settings)
        self.skills = SkillsTab(ctx)
        self.memory = MemoryTab(ctx)
        self.speed = SpeedTab(ctx)
        self.privacy = PrivacyTab(ctx)
        self.connect_page = ConnectPage(ctx, ctx.server,
                                        use_context=lambda tokens: self.context.setValue(tokens))
        tabs: list[tuple[QWidget, Callable[[], str]]] = [
            (self._model_tab(), lambda: self.tr("Model")),
            (self._folders_tab(), lambda: self.tr("Folders")),
            (self._general_tab(), lambda: self.tr("General")),
            (self.mcp, lambda: self.tr("Tool servers")),
            (self.generation, lambda: self.tr("Answers")), (self.skills, lambda: self.tr("Skills")),
            (self.memory, lambda: self.tr("Memory")), (self.speed, lambda: self.tr("Speed")),
            (self.privacy, lambda: self.tr("Privacy")),
            (self.connect_page, lambda: self.tr("Connect another app"))]
        add_tabs(self.tabs, self._tr, tabs)
        layout.addWidget(self.tabs, 1)
        self._fit_tabs()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._explain_engine()

    def _fit_tabs(self) -> None:
        """As wide as every tab's name needs (English needs the most), so no scroll arrows
        hide the last tabs; never wider than the screen."""
        layout = self.layout()
        margins = layout.contentsMargins().left() * 2 if layout is not None else 0
        wanted = self.tabs.tabBar().sizeHint().width() + margins + 8
        screen = self.screen()
        limit = screen.availableGeometry().width() if screen is not None else wanted
        self.resize(min(max(self.width(), wanted), limit), self.height())

    # -- tabs ---------------------------------------------------------------------------------
    def _model_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(12, 14, 12, 8)
        form.setVerticalSpacing(10)
        self.model_path = QLineEdit(self.settings.model_path, placeholderText=self.tr("No model chosen"))
        self.model_path.setAccessibleName(self.tr("Model file or folder"))
        self.model_path.editingFinished.connect(self._explain_engine)
        manage = button(self.tr("Models…"), self.open_models.emit, self.tr("Manage models"))
        form.addRow(self.tr("Model"), hbox((self.model_path, 1), manage))
        names = {AUTO: self.tr("Automatic"), Engine.REMOTE: self.tr("Remote server")}
        self.engine = choice([(names.get(key) or display_name(key), key) for key in CHOICES],
                             self.settings.engine, self.tr("Engine"))
        self.engine.currentIndexChanged.connect(lambda _i: self._explain_engine())
        form.addRow(self.tr("Engine"), self.engine)
        self.remote_url = QLineEdit(self.settings.remote_url, placeholderText="http://127.0.0.1:8080/v1")
        self.remote_url.setAccessibleName(self.tr("Remote server address"))
        self.remote_url.editingFinished.connect(self._explain_engine)
        form.addRow(self.tr("Server"), self.remote_url)
        self.engine_reason = dim_label()
        form.addRow("", self.engine_reason)
        self.context = spin_box(0, 262144, self.settings.context_length,
                                self.tr("Context length in tokens"), step=1024)
        self.context.setSpecialValueText(self.tr("Automatic (from free memory)"))
        form.addRow(self.tr("Context length"), self.context)
        self.kv = choice([(self.tr("f16 (best quality)"), "f16"),
                          (self.tr("q8_0 (half the memory)"), "q8_0")], self.settings.kv_type,
                         self.tr("KV cache precision"))
        form.addRow(self.tr("KV cache"), self.kv)
        form.addRow("", dim_label(self.tr("Each token of context takes 176 KiB at f16 (94 KiB at "
                                      "q8_0): 8K tokens need about 1.4 GiB.")))
        self.thinking = QCheckBox(self.tr("Think before answering by default"))
        self.thinking.setChecked(self.settings.thinking_default)
        form.addRow(self.tr("Thinking"), self.thinking)
        return page

    def _folders_tab(self) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(12, 14, 12, 8)
        column.addWidget(QLabel(self.tr("Watched folders (documents Hearth can read and cite)")))
        self.watched = FolderList(list(self.settings.watched_folders), self.tr("Watched folders"))
        column.addWidget(self.watched)
        column.addSpacing(8)
        column.addWidget(QLabel(self.tr("File search folders (Hearth finds files only here)")))
        self.roots = FolderList(list(self.settings.file_roots), self.tr("File search folders"))
        column.addWidget(self.roots)
        self.ignore = QLineEdit(", ".join(self.settings.file_ignore_patterns))
        self.ignore.setPlaceholderText(self.tr("Left out of file search, e.g. *.log, build/"))
        self.ignore.setAccessibleName(self.tr("Patterns left out of file search"))
        column.addWidget(self.ignore)
        column.addSpacing(8)
        column.addWidget(QLabel(self.tr("Office files Hearth writes (documents, sheets, "
                                        "slides) go to")))
        self.office_output = OutputFolder(self.settings.office_output_folder,
                                          default_output_folder(),
                                          self.tr("Folder for office files"))
        column.addWidget(self.office_output)
        column.addStretch(1)
        return page

    def _general_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(12, 14, 12, 8)
        form.setVerticalSpacing(10)
        self.hotkey = QKeySequenceEdit(QKeySequence(self.settings.hotkey or default_hotkey()))
        self.hotkey.setMaximumSequenceLength(1)
        self.hotkey.setAccessibleName(self.tr("Quick ask shortcut"))
        form.addRow(self.tr("Quick ask shortcut"), self.hotkey)
        self.hotkey_status = dim_label()
        self._show_hotkey_status(getattr(self.ctx.hotkey, "status", None))
        self.hotkey.editingFinished.connect(self._try_hotkey)
        form.addRow("", self.hotkey_status)
        self.theme = choice([(self.tr("Follow the system"), "system"), (self.tr("Light"), "light"),
                             (self.tr("Dark"), "dark")], self.settings.theme, self.tr("Theme"))
        form.addRow(self.tr("Theme"), self.theme)
        self.language = choice([(self.tr("Follow the system"), "system"),
                                *((label, key) for key, label in LANGUAGES.items())],
                               self.settings.language, self.tr("Language"))
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", dim_label(self.tr("The language changes as soon as you save.")))
        form.addRow(self.tr("Reminders"), button(self.tr("Show a test notification"),
                                                  self.test_notification.emit,
                                                  self.tr("Show a test notification")))
        # The OS's own login-item record is the setting (the Windows installer writes it too).
        self.autostart = QCheckBox()
        self._tr(lambda: self.autostart.setText(self.tr("Start Hearth in the tray when I sign in")))
        self._tr(lambda: self.autostart.setAccessibleName(self.autostart.text()))
        self.autostart.setChecked(self._login_item.enabled())
        form.addRow("", self.autostart)
        return page

    def _show_hotkey_status(self, status: Any) -> None:
        if status is None:
            self.hotkey_status.setText(self.tr("The shortcut is registered while Hearth runs."))
        else:
            self.hotkey_status.setText(("✓ " if status.ok else "⚠ ") + status.message)

    def _try_hotkey(self) -> None:
        """Register the new combination at once, so the user sees whether it is free."""
        if self.ctx.hotkey is None:
            return
        text = self.hotkey.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        if text:
            self._show_hotkey_status(self.ctx.hotkey.register(text))

    def reject(self) -> None:
        if self.ctx.hotkey is not None:  # put the saved combination back
            self.ctx.hotkey.register(self.settings.hotkey or default_hotkey())
        super().reject()

    # -- engine reason ------------------------------------------------------------------------
    def _explain_engine(self) -> None:
        """Why this engine: computed off the GUI thread (it looks at the model file)."""
        from backends.select import choose_engine

        path, engine = self.model_path.text().strip(), str(self.engine.currentData())
        url = self.remote_url.text().strip()
        self.remote_url.setEnabled(engine in ("remote", "auto"))
        if not path and not url:
            self.engine_reason.setText(self.tr("Choose a model to see which engine runs it."))
            return

        def done(choice: EngineChoice) -> None:
            from app.ui.engine_reason import engine_reason

            self.engine_reason.setText(engine_reason(choice))

        def failed(error: Exception) -> None:
            self.engine_reason.setText("⚠ " + str(error))

        self.ctx.ops.run(lambda: choose_engine(path, engine, url), done, failed)

    # -- save ---------------------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        sequence = self.hotkey.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        return {
            "model_path": self.model_path.text().strip(),
            "engine": str(self.engine.currentData()),
            "remote_url": self.remote_url.text().strip(),
            "context_length": int(self.context.value()),
            "kv_type": str(self.kv.currentData()),
            "thinking_default": self.thinking.isChecked(),
            "watched_folders": self.watched.folders(),
            "file_roots": self.roots.folders(),
            "file_ignore_patterns": [p for p in map(str.strip, self.ignore.text().split(",")) if p],
            "office_output_folder": self.office_output.folder(),
            "hotkey": "" if sequence == default_hotkey() else sequence,
            "theme": str(self.theme.currentData()),
            "language": str(self.language.currentData()),
            "mcp_servers": self.mcp.servers(),
            **self.generation.values(),
            **self.skills.values(),
            **self.memory.values(),
            **self.speed.values(),
            **self.connect_page.values(),
        }

    def save(self) -> None:
        if not self.memory.ready_to_save():
            self.tabs.setCurrentWidget(self.memory)  # it says what to fix; nothing is lost
            return
        changed = {k for k, v in self.values().items() if getattr(self.settings, k) != v}
        for key in changed:
            setattr(self.settings, key, self.values()[key])
        self._apply_now(changed)
        self.memory.save_instructions()
        wanted = self.autostart.isChecked()
        if wanted != self._login_item.enabled():
            self.ctx.ops.run(lambda: self._login_item.set(wanted), lambda _r: None,
                             title=self.tr("Could not change start at login"), writes=True)
        hearth = self.ctx.hearth
        self.ctx.ops.run(hearth.save_settings, lambda _r: self.saved.emit(changed),
                         title=self.tr("Could not save settings"), writes=True)
        self.accept()

    def _apply_now(self, changed: set[str]) -> None:
        """Theme, language and hotkey take effect at once; the model reloads after saving."""
        if "theme" in changed and self.ctx.theme is not None:
            self.ctx.theme.set_choice(self.settings.theme)
        if "language" in changed and self.ctx.translations is not None:
            self.ctx.translations.apply(self.settings.language)
        if "hotkey" in changed and self.ctx.hotkey is not None:
            self.ctx.hotkey.register(self.settings.hotkey or default_hotkey())
