package org.hsdag.backend;

/** A device a backend offers: its OpenVINO name ({@code GPU.1}) and full name ({@code Intel(R) Data Center GPU Flex 170}). */
public record DeviceInfo(String name, String fullName) {}
