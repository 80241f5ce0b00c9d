"""The hardware layer: pins, switch matrix, LEDs, OLED, buttons and their simulated twins."""
