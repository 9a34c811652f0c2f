"""The Python side of the browser: the pinned editor install, the Chromium session and the editor page."""
