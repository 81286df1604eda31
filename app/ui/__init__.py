"""Everything PySide6: windows, tray, hotkey, dialogs and the bridge from core events to Qt."""

from app.ui.binding_guard import protect_singletons

# Before any window or test emits its first signal (see binding_guard for the binding's bug).
protect_singletons()
