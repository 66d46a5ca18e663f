public enum Reporting {}
