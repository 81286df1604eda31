"""Everything PySide6: windows, tray, hotkey, dialogs and the bridge from core events to Qt."""

from app.ui.binding_guard import protect_singletons
from app.ui.binding_speed import read_sources_faster

# Before the rest of the UI is imported (see binding_speed).
read_sources_faster()
# Before any window or test emits its first signal (see binding_guard for the binding's bug).
protect_singletons()
