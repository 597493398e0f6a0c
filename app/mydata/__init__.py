"""A person's own data: download it all (one JSON file), or delete the profile."""
