"""Solo play against Victoria: results, best scores per building start value, the campaign."""
