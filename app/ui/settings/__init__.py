"""The Settings dialog and its tabs: model, answers, skills, speed, privacy, tool servers, connect."""
