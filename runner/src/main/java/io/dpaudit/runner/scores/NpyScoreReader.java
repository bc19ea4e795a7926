package io.dpaudit.runner.scores;

import io.dpaudit.core.InvalidInputException;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A one-dimensional NumPy array as {@code numpy.save} writes it (format versions 1, 2 and 3): the magic string
 * {@code \x93NUMPY}, a header dictionary with {@code descr} ({@code <f8}, {@code >f8}, {@code <f4}, {@code >f4}),
 * {@code fortran_order} and a {@code shape} of {@code (n,)} or {@code (n, 1)}, then the data. Elements are read
 * through a 64 KiB buffer; a NaN element or a file shorter than its shape is an error naming the file and the element.
 */
final class NpyScoreReader implements ScoreReader {
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([<>|=])([a-z])(\\d+)'");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)?\\s*\\)");

    private final String file;
    private final InputStream in;
    private final long count;
    private final int width;
    private final ByteBuffer buffer;
    private long index;
    private double value;

    NpyScoreReader(String file, InputStream in) throws IOException {
        this.file = file;
        this.in = in;
        DataInputStream data = new DataInputStream(in);
        byte[] magic = new byte[6];
        data.readFully(magic);
        int major = data.readUnsignedByte();
        data.readUnsignedByte();
        long headerLength;
        if (major == 1) {
            headerLength = Short.toUnsignedInt(Short.reverseBytes(data.readShort()));
        } else if (major == 2 || major == 3) {
            headerLength = Integer.toUnsignedLong(Integer.reverseBytes(data.readInt()));
        } else {
            throw new InvalidInputException(file, "(.npy version " + major + ")", "unsupported NumPy format version");
        }
        if (headerLength > 1 << 20) {
            throw new InvalidInputException(file, "(.npy header of " + headerLength + " bytes)", "header too long");
        }
        byte[] header = new byte[(int) headerLength];
        data.readFully(header);
        String h = new String(header, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        Matcher d = DESCR.matcher(h);
        if (!d.find() || !d.group(2).equals("f") || !(d.group(3).equals("8") || d.group(3).equals("4"))) {
            throw new InvalidInputException(file, d.find(0) ? "(dtype " + d.group(1) + d.group(2) + d.group(3) + ")"
                    : "(no dtype)", "must be float64 or float32");
        }
        width = Integer.parseInt(d.group(3));
        ByteOrder order = d.group(1).equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Matcher s = SHAPE.matcher(h);
        if (!s.find() || (s.group(2) != null && !s.group(2).equals("1"))) {
            throw new InvalidInputException(file, "(shape " + shape(h) + ")", "must be one-dimensional, (n,) or (n, 1)");
        }
        try {
            count = Long.parseLong(s.group(1));
        } catch (NumberFormatException e) {
            throw new InvalidInputException(file, "(shape " + shape(h) + ")", "holds more elements than any file can");
        }
        buffer = ByteBuffer.allocate(1 << 16).order(order);
        buffer.limit(0);
    }

    /** The header's shape tuple as written, e.g. {@code (50, 2)}; "missing" without one. */
    private static String shape(String header) {
        int i = header.indexOf("'shape'");
        int open = i < 0 ? -1 : header.indexOf('(', i);
        int close = open < 0 ? -1 : header.indexOf(')', open);
        return close < 0 ? "missing" : header.substring(open, close + 1);
    }

    @Override
    public boolean next() throws IOException {
        if (index >= count) {
            // bytes after the last element: still in the buffer, or further in the stream
            if (index == count && (buffer.hasRemaining() || in.read() >= 0)) {
                index++;
                throw new InvalidInputException(file, "(bytes after element " + count + ")", "the file is longer "
                        + "than its shape says");
            }
            return false;
        }
        if (buffer.remaining() < width) {
            buffer.compact();
            int want = buffer.remaining();
            int got = 0;
            while (got < want) {
                int r = in.read(buffer.array(), buffer.position(), buffer.remaining());
                if (r < 0) {
                    break;
                }
                buffer.position(buffer.position() + r);
                got += r;
            }
            buffer.flip();
            if (buffer.remaining() < width) {
                throw new InvalidInputException(file + ", element " + (index + 1), "(end of file)", "the file is "
                        + "shorter than its shape (" + count + " elements)");
            }
        }
        double v = width == 8 ? buffer.getDouble() : buffer.getFloat();
        index++;
        if (Double.isNaN(v)) {
            throw new InvalidInputException(file + ", element " + index, "NaN", "NaN is not a score");
        }
        value = v;
        return true;
    }

    @Override
    public double value() {
        return value;
    }

    @Override
    public String position() {
        return "element " + index;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
