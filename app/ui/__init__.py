"""Everything PySide6: windows, tray, hotkey, dialogs and the bridge from core events to Qt."""
