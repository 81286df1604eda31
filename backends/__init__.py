"""Model engines behind one interface: llama.cpp, MLX, OpenAI-compatible remote, scripted."""
