"""A client for a real Mastra server (httpx), streaming into live views."""
