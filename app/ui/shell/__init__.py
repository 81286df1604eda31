"""The app around the pages: start-up, main window, sidebar, tray, quick ask, hotkey, notifications."""
