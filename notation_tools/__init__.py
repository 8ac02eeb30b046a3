"""notation-tools: records of Maka-Dai-Dai Shogi, Game of War, Shih, Shuriken 2D and Elevation."""

__version__ = "0.1.0"
