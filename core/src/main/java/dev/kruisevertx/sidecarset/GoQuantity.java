package dev.kruisevertx.sidecarset;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * What Go's {@code resource.Quantity} writes to JSON after reading a given string (apimachinery v0.32): a string
 * already in canonical form is kept as written (decimal: a scale that is a multiple of 3, no trailing "000", no
 * leading zero; binary: a power-of-1024 suffix over a number not divisible by 8), anything else is rewritten in
 * canonical form ("1000m" becomes "1", "0.5" becomes "500m", "2048Ki" becomes "2Mi"). Values finer than a
 * nano unit are rounded up to it, and with {@code roundUpMilli} (what Kubernetes defaulting does to container
 * resource lists) to a milli unit. A string Go would refuse is returned unchanged (validation refuses it first).
 */
final class GoQuantity {
    enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    /** A parsed quantity: its exact value and the format Go keeps for printing it. */
    record Amount(BigDecimal value, Format format) {
    }

    private record Suffix(int base, int exponent, Format format) {
    }

    private static final Map<String, Suffix> SUFFIXES = Map.ofEntries(
            Map.entry("", new Suffix(10, 0, Format.DECIMAL_SI)),
            Map.entry("n", new Suffix(10, -9, Format.DECIMAL_SI)),
            Map.entry("u", new Suffix(10, -6, Format.DECIMAL_SI)),
            Map.entry("m", new Suffix(10, -3, Format.DECIMAL_SI)),
            Map.entry("k", new Suffix(10, 3, Format.DECIMAL_SI)),
            Map.entry("M", new Suffix(10, 6, Format.DECIMAL_SI)),
            Map.entry("G", new Suffix(10, 9, Format.DECIMAL_SI)),
            Map.entry("T", new Suffix(10, 12, Format.DECIMAL_SI)),
            Map.entry("P", new Suffix(10, 15, Format.DECIMAL_SI)),
            Map.entry("E", new Suffix(10, 18, Format.DECIMAL_SI)),
            Map.entry("Ki", new Suffix(2, 10, Format.BINARY_SI)),
            Map.entry("Mi", new Suffix(2, 20, Format.BINARY_SI)),
            Map.entry("Gi", new Suffix(2, 30, Format.BINARY_SI)),
            Map.entry("Ti", new Suffix(2, 40, Format.BINARY_SI)),
            Map.entry("Pi", new Suffix(2, 50, Format.BINARY_SI)),
            Map.entry("Ei", new Suffix(2, 60, Format.BINARY_SI)));
    private static final Map<Integer, String> DECIMAL_NAMES = Map.of(-9, "n", -6, "u", -3, "m", 0, "", 3, "k",
            6, "M", 9, "G", 12, "T", 15, "P", 18, "E");
    private static final Map<Integer, String> BINARY_NAMES = Map.of(10, "Ki", 20, "Mi", 30, "Gi", 40, "Ti",
            50, "Pi", 60, "Ei");
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal BINARY_LIMIT = BigDecimal.valueOf(1024);
    private static final int MAX_INT64_FACTORS = 18;
    private static final int NANO = -9;
    private static final int MILLI = -3;

    private GoQuantity() {
    }

    static String marshal(String raw, boolean roundUpMilli) {
        String str = raw.strip();
        if (str.equals("0")) {
            return "0";
        }
        Parsed p = parse(str);
        if (p == null) {
            return raw;
        }
        Suffix suffix = interpret(p.suffix);
        if (suffix == null) {
            return raw;
        }
        Format format = suffix.format;
        int precision = -1;
        int scale = 0;
        long mantissa = 1;
        if (format == Format.BINARY_SI) {
            if (suffix.exponent >= 0 && p.denom.isEmpty()) {
                mantissa = 1L << suffix.exponent;
                precision = 15 - p.num.length() - suffix.exponent * 3 / 10 - 1;
            }
        } else {
            scale = suffix.exponent;
            precision = MAX_INT64_FACTORS - (p.num.length() + p.denom.length());
        }
        if (precision >= 0) {
            scale -= p.denom.length();
            if (scale >= NANO) {
                String shifted = p.num + p.denom;
                BigInteger digits = new BigInteger(shifted);
                BigInteger product = digits.multiply(BigInteger.valueOf(mantissa));
                if (digits.bitLength() < 64 && product.bitLength() < 64) {
                    BigDecimal value = new BigDecimal(p.positive ? product : product.negate(), -scale);
                    boolean canonical = format == Format.BINARY_SI
                            ? suffix.exponent % 10 == 0 && (digits.longValue() & 0x07) != 0
                            : scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
                    if (roundUpMilli && scale < MILLI) {
                        // RoundUp drops the kept string only when it changes the scale.
                        return canonicalize(value.setScale(-MILLI, RoundingMode.UP), format);
                    }
                    return canonical ? str : canonicalize(value, format);
                }
            }
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal(p.value);
        } catch (NumberFormatException e) {
            return raw;
        }
        if (suffix.base == 10) {
            amount = amount.scaleByPowerOfTen(suffix.exponent);
        } else {
            amount = new BigDecimal(amount.unscaledValue().shiftLeft(suffix.exponent), amount.scale());
        }
        int sign = amount.signum();
        amount = amount.abs();
        if (sign != 0) {
            amount = amount.setScale(-NANO, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
            amount = MAX_ALLOWED;
        }
        if (format == Format.BINARY_SI && amount.compareTo(BigDecimal.ONE) < 0 && amount.signum() > 0) {
            format = Format.DECIMAL_SI;
        }
        if (sign < 0) {
            amount = amount.negate();
        }
        if (roundUpMilli) {
            amount = amount.setScale(-MILLI, RoundingMode.UP);
        }
        return canonicalize(amount, format);
    }

    /**
     * Go's {@code resource.ParseQuantity}: the value (rounded up to a nano unit) and its format, or null when Go
     * refuses the string.
     */
    static Amount parseAmount(String raw) {
        String str = raw.strip();
        if (str.isEmpty()) {
            return null;
        }
        Parsed p = parse(str);
        if (p == null) {
            return null;
        }
        Suffix suffix = interpret(p.suffix);
        if (suffix == null) {
            return null;
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal(p.value);
        } catch (NumberFormatException e) {
            return null;
        }
        if (suffix.base == 10) {
            amount = amount.scaleByPowerOfTen(suffix.exponent);
        } else {
            amount = new BigDecimal(amount.unscaledValue().shiftLeft(suffix.exponent), amount.scale());
        }
        Format format = suffix.format;
        if (amount.signum() != 0 && amount.scale() > -NANO) {
            amount = amount.setScale(-NANO, amount.signum() > 0 ? RoundingMode.CEILING : RoundingMode.FLOOR);
        }
        if (format == Format.BINARY_SI && amount.abs().compareTo(BigDecimal.ONE) < 0 && amount.signum() != 0) {
            format = Format.DECIMAL_SI;
        }
        return new Amount(amount, format);
    }

    /** Go's {@code Quantity.String()} of a value computed in the given format (null: a zero Quantity{}). */
    static String format(BigDecimal value, Format format) {
        return canonicalize(value, format == null ? Format.DECIMAL_EXPONENT : format);
    }

    private static String canonicalize(BigDecimal value, Format format) {
        if (value.signum() == 0) {
            return "0";
        }
        if (format == Format.BINARY_SI) {
            if (value.abs().compareTo(BINARY_LIMIT) < 0 || value.stripTrailingZeros().scale() > 0) {
                format = Format.DECIMAL_SI;
            } else {
                BigInteger amount = value.toBigIntegerExact();
                int exponent = 0;
                BigInteger k = BigInteger.valueOf(1024);
                while (amount.abs().compareTo(k) >= 0 && amount.mod(k).signum() == 0) {
                    amount = amount.divide(k);
                    exponent++;
                }
                return amount + BINARY_NAMES.getOrDefault(exponent * 10, "");
            }
        }
        BigInteger amount = value.unscaledValue();
        int exponent = -value.scale();
        while (amount.abs().compareTo(BigInteger.TEN) >= 0 && amount.mod(BigInteger.TEN).signum() == 0) {
            amount = amount.divide(BigInteger.TEN);
            exponent++;
        }
        while (exponent % 3 != 0) {
            amount = amount.multiply(BigInteger.TEN);
            exponent--;
        }
        if (format == Format.DECIMAL_EXPONENT) {
            return amount + (exponent == 0 ? "" : "e" + exponent);
        }
        return amount + DECIMAL_NAMES.getOrDefault(exponent, "");
    }

    private static Suffix interpret(String s) {
        Suffix known = SUFFIXES.get(s);
        if (known != null) {
            return known;
        }
        if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
            try {
                return new Suffix(10, Integer.parseInt(s.substring(1)), Format.DECIMAL_EXPONENT);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private record Parsed(boolean positive, String value, String num, String denom, String suffix) {
    }

    /** Go's parseQuantityString: sign, numerator without leading zeros, denominator, suffix. */
    private static Parsed parse(String str) {
        boolean positive = true;
        int pos = 0;
        int end = str.length();
        if (pos < end && (str.charAt(0) == '-' || str.charAt(0) == '+')) {
            positive = str.charAt(0) != '-';
            pos++;
        }
        while (pos < end && str.charAt(pos) == '0') {
            pos++;
        }
        if (pos >= end) {
            return new Parsed(positive, "0", "0", "", "");
        }
        int start = pos;
        while (pos < end && Character.isDigit(str.charAt(pos)) && str.charAt(pos) < 128) {
            pos++;
        }
        if (pos >= end) {
            return new Parsed(positive, str, str.substring(start), "", "");
        }
        String num = str.substring(start, pos);
        if (num.isEmpty()) {
            num = "0";
        }
        String denom = "";
        if (str.charAt(pos) == '.') {
            pos++;
            int d = pos;
            while (pos < end && str.charAt(pos) >= '0' && str.charAt(pos) <= '9') {
                pos++;
            }
            denom = str.substring(d, pos);
            if (pos >= end) {
                return new Parsed(positive, str, num, denom, "");
            }
        }
        String value = str.substring(0, pos);
        int suffixStart = pos;
        while (pos < end && "eEinumkKMGTP".indexOf(str.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end) {
            if (str.charAt(pos) < '0' || str.charAt(pos) > '9') {
                return null;
            }
            pos++;
        }
        return new Parsed(positive, value, num, denom, str.substring(suffixStart));
    }
}
